// `npm run bench:generate`: zero-shot generation of all 27 benchmark tasks (79 turns) against a loopback stub that
// answers every call after 1 s, 8 calls in flight; the stub runs in its own process. Reports the median wall time of
// 3 runs. Target ≤ 12.5 s; rounds of a task are sequential, so no schedule beats ceil(79 / 8) = 10 s.
import { availableParallelism, loadavg } from "node:os";
import { readBenchmarkDir } from "../../lib/server/benchmark-files";
import { generateResponses } from "../../lib/server/generation/runner";
import { createChatClient } from "../../lib/server/llm";
import { fixedReply } from "../../test/support/openai-stub";
import { collectGarbage, locateBenchmark, median, peakRssMb, printTable, runMain, serveStub, startStubProcess } from "./common";

const CONCURRENCY = 8;
const SERVER_DELAY_MS = 1_000;
const RUNS = 3;
const TARGET_SECONDS = 12.5;
const REPLY = "<node_selection>start, end</node_selection>\n<design_principle>A fixed stub reply.</design_principle>\n<workflow>{}</workflow>";

async function main(): Promise<void> {
  if (process.argv.includes("--stub")) return serveStub(fixedReply(REPLY, SERVER_DELAY_MS));
  const files = await readBenchmarkDir(locateBenchmark(), { includeRuns: false });
  if (!files.ok) throw new Error(files.issues.map((entry) => entry.message).join("\n"));
  const tasks = files.value.queries;
  const builderPrompt = files.value.prompts.find((prompt) => prompt.name === "builder_prompt")?.text ?? "";
  const turns = tasks.reduce((sum, task) => sum + task.queries.length, 0);
  const { child, baseURL } = await startStubProcess(__filename);
  try {
    const seconds: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const client = createChatClient({ baseURL, model: "bench-stub", concurrency: CONCURRENCY, maxRetries: 0 });
      collectGarbage();
      const started = performance.now();
      const result = await generateResponses({ client, tasks, mode: "zero-shot", builderPrompt, concurrency: CONCURRENCY });
      seconds.push((performance.now() - started) / 1000);
      if (result.generated !== turns) throw new Error(`${result.failed} of ${turns} turns failed: ${result.turns.find((turn) => !turn.ok)?.error}`);
    }
    const wall = median(seconds);
    const bound = Math.ceil(turns / CONCURRENCY) * (SERVER_DELAY_MS / 1000);
    console.log(`Generation benchmark — ${tasks.length} tasks, ${turns} turns, zero-shot, concurrency ${CONCURRENCY}, loopback stub answering after ${SERVER_DELAY_MS} ms (own process); median of ${RUNS} runs; load average ${(loadavg()[0] ?? 0).toFixed(1)} on ${availableParallelism()} CPUs\n`);
    printTable(
      ["measure", "value", "target", ""],
      [
        ["wall time (s)", wall.toFixed(2), `≤ ${TARGET_SECONDS} (schedule bound ${bound})`, wall <= TARGET_SECONDS ? "ok" : "MISSED"],
        ["runs (s)", seconds.map((value) => value.toFixed(2)).join(", "), "", ""],
        ["peak RSS (MB)", peakRssMb().toFixed(0), "", ""],
      ],
    );
  } finally {
    child.stdin?.end();
    child.kill();
  }
}

runMain(main);
