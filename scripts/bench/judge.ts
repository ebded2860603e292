// `npm run bench:judge`: 2,000 judge calls (the shared runs' pass-stage prompts) through judgeItems against the
// loopback stub answering after 200 ms, 32 at a time; the stub runs in its own process so the figures are the judge's.
// Reports medians of 3 timed runs after a warm-up. Targets: ≥ 140 calls/s, ≤ 2 ms CPU added per call, ≤ 300 MB RSS.
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism, loadavg } from "node:os";
import { createInterface } from "node:readline";
import { judgeItemsFor, officialSystemPrompt, type JudgeItem } from "../../lib/judge";
import { readBenchmarkDir } from "../../lib/server/benchmark-files";
import { createChatClient, judgeItems } from "../../lib/server/llm";
import { fixedReply, officialReply, startOpenAIStub } from "../../test/support/openai-stub";
import { collectGarbage, locateBenchmark, mainThreadCpuMs, median, peakRssMb, printTable, quantile, runMain } from "./common";

const CALLS = 2_000;
const CONCURRENCY = 32;
const SERVER_DELAY_MS = 200;
const RUNS = 3;
const TARGETS = { callsPerSecond: 140, addedMsPerCall: 2, peakRssMb: 300 };

/** The stub process: serves until its parent closes stdin, printing its base URL first. */
async function serveStub(): Promise<void> {
  const stub = await startOpenAIStub(fixedReply(officialReply("\nThe stub always agrees.\n", true), SERVER_DELAY_MS), { record: false });
  console.log(stub.baseURL);
  await new Promise<void>((resolve) => {
    process.stdin.on("end", resolve).on("close", resolve).resume();
  });
  await stub.close();
}

function startStubProcess(): Promise<{ child: ChildProcess; baseURL: string }> {
  const child = spawn(process.execPath, [...process.execArgv, __filename, "--stub"], { stdio: ["pipe", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the stub process exited early (${code})`)));
    createInterface({ input: child.stdout as NonNullable<typeof child.stdout> }).once("line", (line) => resolve({ child, baseURL: line.trim() }));
  });
}

async function benchmarkItems(): Promise<JudgeItem[]> {
  const files = await readBenchmarkDir(locateBenchmark());
  if (!files.ok) throw new Error(files.issues.map((entry) => entry.message).join("\n"));
  const prompt = files.value.prompts.find((candidate) => candidate.name === "evaluation_pass_system");
  if (!prompt) throw new Error("the benchmark has no evaluation_pass_system prompt");
  const { items } = judgeItemsFor("pass", files.value.runs, {
    turns: files.value.turns,
    queries: new Map(files.value.queries.map((task) => [task.task, task.queries])),
    systemPrompt: officialSystemPrompt(prompt.text),
  });
  if (items.length === 0) throw new Error("the shared runs have no pass-stage questions");
  return Array.from({ length: CALLS }, (_, index) => items[index % items.length] as JudgeItem);
}

interface Timing {
  seconds: number;
  callsPerSecond: number;
  addedMsMedian: number;
  addedMsP95: number;
  cpuMsPerCall: number | null;
  processCpuMsPerCall: number;
}

async function timedRun(baseURL: string, items: readonly JudgeItem[]): Promise<Timing> {
  const client = createChatClient({ baseURL, model: "bench-stub", params: { temperature: 0, max_tokens: 8192 }, concurrency: CONCURRENCY, maxRetries: 0 });
  collectGarbage();
  const cpuBefore = mainThreadCpuMs();
  const processBefore = process.cpuUsage();
  const started = performance.now();
  const run = await judgeItems(items, { client });
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = mainThreadCpuMs();
  const processCpu = process.cpuUsage(processBefore);
  const failed = run.results.filter((judged) => judged.verdict === null);
  if (run.results.length !== items.length || failed.length) throw new Error(`${failed.length} calls failed: ${failed[0]?.error?.message}`);
  const added = run.results.map((judged) => (judged.samples[0]?.latencyMs ?? 0) - SERVER_DELAY_MS);
  return {
    seconds,
    callsPerSecond: run.calls / seconds,
    addedMsMedian: median(added),
    addedMsP95: quantile(added, 0.95),
    cpuMsPerCall: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / run.calls,
    processCpuMsPerCall: (processCpu.user + processCpu.system) / 1000 / run.calls,
  };
}

async function main(): Promise<void> {
  if (process.argv.includes("--stub")) return serveStub();
  const items = await benchmarkItems();
  const { child, baseURL } = await startStubProcess();
  try {
    await timedRun(baseURL, items.slice(0, 200)); // warm-up: connections, JIT
    const timings: Timing[] = [];
    for (let run = 0; run < RUNS; run += 1) timings.push(await timedRun(baseURL, items));
    const throughput = median(timings.map((timing) => timing.callsPerSecond));
    const added = median(timings.map((timing) => timing.addedMsMedian));
    const cpu = timings.every((timing) => timing.cpuMsPerCall !== null) ? median(timings.map((timing) => timing.cpuMsPerCall as number)) : null;
    const processCpu = median(timings.map((timing) => timing.processCpuMsPerCall));
    const rss = peakRssMb();
    const ideal = CONCURRENCY / (SERVER_DELAY_MS / 1000);
    const load = loadavg()[0] ?? 0;
    console.log(`Judge benchmark — ${CALLS} calls, concurrency ${CONCURRENCY}, loopback stub answering after ${SERVER_DELAY_MS} ms (own process); median of ${RUNS} runs after a warm-up; load average ${load.toFixed(1)} on ${availableParallelism()} CPUs\n`);
    const check = (ok: boolean) => (ok ? "ok" : "MISSED");
    printTable(
      ["measure", "value", "target", ""],
      [
        ["throughput (calls/s)", throughput.toFixed(1), `≥ ${TARGETS.callsPerSecond} (ideal ${ideal})`, check(throughput >= TARGETS.callsPerSecond)],
        ["wall time per run (s)", median(timings.map((timing) => timing.seconds)).toFixed(2), "", ""],
        ["added overhead: judge process CPU per call (ms)", processCpu.toFixed(3), `≤ ${TARGETS.addedMsPerCall}`, check(processCpu <= TARGETS.addedMsPerCall)],
        ["  of which the main thread (ms)", cpu === null ? "n/a" : cpu.toFixed(3), "", ""],
        ["added latency per call, median (ms)", added.toFixed(2), "", ""],
        ["added latency per call, p95 (ms)", median(timings.map((timing) => timing.addedMsP95)).toFixed(2), "", ""],
        ["peak RSS of the judge process (MB)", rss.toFixed(0), `≤ ${TARGETS.peakRssMb}`, check(rss <= TARGETS.peakRssMb)],
      ],
    );
    console.log(
      "\nadded overhead = CPU the judge process spends per call (client, HTTP, parsing, bookkeeping; all threads);\n" +
        "added latency = a call's time in judgeItems minus the stub's 200 ms, which also counts waiting for a CPU on a busy machine.",
    );
  } finally {
    child.stdin?.end();
    child.kill();
  }
}

runMain(main);
