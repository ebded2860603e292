import "server-only";
// Rebuilds a stored benchmark's source data (instructions, turn specs, tests, prompts) from the database, so runs
// can be imported against a benchmark that was imported earlier without its files at hand.
import type { CheckPassEntry, TaskQueries, TestCaseData, TestInputValue } from "@/lib/benchmark/dataset";
import type { BenchmarkSource } from "@/lib/import/plan";
import type { Database } from "../db";

export async function loadBenchmarkSource(db: Database, benchmarkId: string): Promise<BenchmarkSource | null> {
  const benchmark = await db.benchmark.findUnique({
    where: { id: benchmarkId },
    include: {
      prompts: { orderBy: { name: "asc" } },
      tasks: {
        orderBy: { externalId: "asc" },
        include: { domain: true, turns: { orderBy: { round: "asc" }, include: { testCases: { orderBy: { position: "asc" } } } } },
      },
    },
  });
  if (!benchmark) return null;
  const queries: TaskQueries[] = [];
  const checkPass: Record<string, CheckPassEntry> = {};
  const checkResolve: Record<string, Record<string, string>> = {};
  for (const task of benchmark.tasks) {
    queries.push({ id: task.externalId, category: task.domain.name, task: task.name, queries: task.turns.map((turn) => turn.instruction) });
    for (const turn of task.turns) {
      const tests = turn.testCases.map(
        (test): TestCaseData => ({ inputs: JSON.parse(test.inputs) as Record<string, TestInputValue>, groundTruth: test.groundTruth }),
      );
      checkPass[turn.key] = {
        inputVar: JSON.parse(turn.inputVars) as string[],
        outputVar: JSON.parse(turn.outputVars) as string[] | string[][],
        relatedNodes: JSON.parse(turn.keyNodes) as string[],
        tests: tests as CheckPassEntry["tests"],
      };
      const fileChecks = JSON.parse(turn.fileChecks) as Record<string, string>;
      if (Object.keys(fileChecks).length > 0) checkResolve[turn.key] = fileChecks;
    }
  }
  return {
    name: benchmark.name,
    sourceDir: benchmark.sourceDir,
    queries,
    checkPass,
    checkResolve,
    prompts: benchmark.prompts.map((prompt) => ({ name: prompt.name, text: prompt.text })),
  };
}
