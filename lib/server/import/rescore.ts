import "server-only";
// Re-scores a stored run with the current scoring core: deterministic verdicts, diagnostics and rule-judge verdicts
// are replaced in one transaction; recorded verdicts, test results and recorded judge reasons are kept.
import { buildTurnSpecs } from "@/lib/benchmark/turn";
import { budgetExceededRescore } from "@/lib/analysis/tasks";
import { RULE_JUDGE_ID } from "@/lib/import/plan";
import { CORE_VERSION } from "@/lib/workflow/version";
import { assertAllowed } from "../authz";
import { insertRows } from "../bulk-insert";
import type { Database } from "../db";
import type { SessionUser } from "../session";
import { loadBenchmarkSource } from "./benchmark-source";
import { responseRows, type WriteOptions } from "./write-import";
import { analyseAll, analysisBudgetMs } from "../analysis/pool";

export interface RescoreOutcome {
  runId: string;
  responses: number;
  previousCoreVersion: string;
  coreVersion: string;
  /** Responses whose deterministic verdict (fail step or rule judge) changed. */
  changed: number;
}

export async function rescoreRun(db: Database, actor: SessionUser, runId: string, options: Pick<WriteOptions, "onProgress"> = {}): Promise<RescoreOutcome | null> {
  assertAllowed(actor, "import");
  const run = await db.run.findUnique({
    where: { id: runId },
    include: { responses: { include: { passResult: true, turn: { select: { key: true } } } } },
  });
  if (!run) return null;
  const source = await loadBenchmarkSource(db, run.benchmarkId);
  if (!source) return null;
  const turns = buildTurnSpecs(source.checkPass, source.checkResolve);

  let changed = 0;
  const passRows: Record<string, unknown>[] = [];
  const diagnosticRows: Record<string, unknown>[] = [];
  const ruleRows: Record<string, unknown>[] = [];
  const now = new Date();
  // Re-scored on the analysis workers, each response within its time budget.
  const budgetMs = analysisBudgetMs();
  const scorable = run.responses.flatMap((response) => {
    const turn = turns.get(response.turn.key);
    const previous = response.passResult;
    if (!turn || !previous) return [];
    const stored = { rawText: response.rawText, nodeSelection: response.nodeSelection, designPrinciple: response.designPrinciple, workflow: response.workflow, recordedValid: previous.recordedValid, recordedFailStep: previous.recordedFailStep };
    return [{ response, previous, task: { kind: "rescore" as const, stored, turn } }];
  });
  const outcomes = await analyseAll(scorable.map((entry) => entry.task), budgetMs);
  for (const [index, { response, previous, task }] of scorable.entries()) {
    const outcome = outcomes[index]!;
    if (!outcome.ok && outcome.reason === "failed") throw new Error(`re-scoring response ${response.id} failed: ${outcome.message}`);
    const result = outcome.ok ? outcome.value : budgetExceededRescore(task.stored, budgetMs);
    if (previous.officialFailStep !== result.pass.officialFailStep || previous.ruleJudge !== result.pass.ruleJudge) changed += 1;
    // Reuse the import's row builder so stored shapes stay identical.
    const rows = responseRows(
      run.id,
      new Map([[response.turn.key, response.turnId]]),
      [
        {
          turnKey: response.turn.key,
          ...response,
          pass: result.pass,
          diagnostics: result.diagnostics,
          cases: [],
          judgeVerdicts: result.ruleVerdict ? [result.ruleVerdict] : [],
        },
      ],
      now,
    );
    const passRow = rows.passResults[0]!;
    passRow.responseId = response.id;
    passRow.coreVersion = CORE_VERSION;
    passRows.push(passRow);
    for (const diagnostic of rows.diagnostics) diagnosticRows.push({ ...diagnostic, passResultId: passRow.id });
    for (const judge of rows.judges) ruleRows.push({ ...judge, responseId: response.id });
  }

  await db.$transaction(
    async (tx) => {
      const responseIds = run.responses.map((response) => response.id);
      await tx.judgeVerdict.deleteMany({ where: { responseId: { in: responseIds }, judge: RULE_JUDGE_ID } });
      await tx.passResult.deleteMany({ where: { responseId: { in: responseIds } } });
      options.onProgress?.({ run: run.label, index: 0, total: 1 });
      await insertRows(tx, "PassResult", passRows);
      await insertRows(tx, "Diagnostic", diagnosticRows);
      await insertRows(tx, "JudgeVerdict", ruleRows);
      await tx.run.update({ where: { id: run.id }, data: { coreVersion: CORE_VERSION, scoredAt: now } });
    },
    { timeout: 5 * 60 * 1000 },
  );
  return { runId: run.id, responses: passRows.length, previousCoreVersion: run.coreVersion, coreVersion: CORE_VERSION, changed };
}

