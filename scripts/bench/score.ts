// `npm run bench:score`: times the scoring core over every recorded response of the shared benchmark.
// Loads the corpus once, then runs each phase 5 times and prints medians, per-response times and memory.
//
// Method (each phase): WARMUPS untimed passes, then RUNS timed passes, each after a full gc() so one pass's
// garbage is not billed to the next. Three warm-ups, not one: V8 needs about three corpus passes to reach steady
// state (scoreResponse passes measured 560, 375, 223, 190, 200 ms), so with one warm-up the first timed pass was
// still half-compiled. The gc() stays although it is harsher than normal running: a full GC also frees the hidden
// classes of objects that are all dead at that moment and discards the optimised code built on them (the scoring
// core anchors its per-response worker classes for that reason, see lib/workflow/shape-anchor.ts).
// The machine is shared, so the load average is printed before and after, and next to each wall-clock median the
// median CPU time of the main thread (Linux /proc/thread-self/schedstat), which excludes time spent waiting for
// the CPU. Targets are judged on the wall-clock median.
import type { RunRecord } from "../../lib/benchmark/runs";
import type { TurnSpec } from "../../lib/benchmark/turn";
import { convertWorkflow, type Conversion } from "../../lib/workflow/convert";
import { buildDifyDsl, difyAppName } from "../../lib/workflow/dify-dsl";
import { toDifyYaml } from "../../lib/workflow/dify-yaml";
import { checkVariableNames, officialVerdict } from "../../lib/workflow/official-verdict";
import { parseResponse, type ParsedResponse } from "../../lib/workflow/response";
import { scoreResponse } from "../../lib/workflow/score";
import { loadavg } from "node:os";
import { collectGarbage, locateBenchmark, mainThreadCpuMs, median, peakRssMb, printTable, runMain } from "./common";
import { loadBenchmarkCorpus } from "./corpus";

const WARMUPS = 3;
const RUNS = 5;

interface Item {
  record: RunRecord;
  turn: TurnSpec;
}

interface PhaseResult {
  name: string;
  medianMs: number;
  minMs: number;
  /** Median main-thread CPU time of the timed passes; null where the platform does not report it. */
  cpuMs: number | null;
  perResponseUs: number;
  count: number;
}

let peakHeap = 0;
function sampleHeap(): void {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}

/** Runs `body` WARMUPS times to warm up, then RUNS times; `body` returns how many responses it handled. */
function phase(name: string, body: () => number): PhaseResult {
  let count = 0;
  for (let i = 0; i < WARMUPS; i++) count = body();
  const times: number[] = [];
  const cpuTimes: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    collectGarbage();
    const cpuStart = mainThreadCpuMs();
    const start = performance.now();
    count = body();
    times.push(performance.now() - start);
    const cpuEnd = mainThreadCpuMs();
    if (cpuStart !== null && cpuEnd !== null) cpuTimes.push(cpuEnd - cpuStart);
    sampleHeap();
  }
  const medianMs = median(times);
  const cpuMs = cpuTimes.length === RUNS ? median(cpuTimes) : null;
  return { name, medianMs, minMs: Math.min(...times), cpuMs, perResponseUs: count ? (medianMs * 1000) / count : 0, count };
}

function formatLoad(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(" ");
}

function recordInput(record: RunRecord) {
  return { nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow };
}

async function main(): Promise<void> {
  const dir = locateBenchmark();
  const loadBefore = formatLoad();
  const loadStart = performance.now();
  const corpus = await loadBenchmarkCorpus(dir);
  const items: Item[] = corpus.runs.flatMap((run) =>
    run.records.map((record) => {
      const turn = corpus.turns.get(`${record.task}_${record.round}`);
      if (!turn) throw new Error(`no turn spec for ${record.task}_${record.round}`);
      return { record, turn };
    }),
  );
  const loadMs = performance.now() - loadStart;
  sampleHeap();

  const parsed: ParsedResponse[] = items.map((item) => parseResponse(recordInput(item.record)));
  const converted: { conversion: Conversion; name: string }[] = [];
  parsed.forEach((p, i) => {
    if (!p.json.ok) return;
    const result = convertWorkflow(p.json.value, { floats: p.json.floats });
    const item = items[i] as Item;
    if (result.ok) converted.push({ conversion: result.value, name: difyAppName(item.record.task, item.record.round) });
  });

  const results: PhaseResult[] = [
    phase("parse (step 1_1)", () => {
      for (const item of items) parseResponse(recordInput(item.record));
      return items.length;
    }),
    phase("convert + variables (steps 1_2–1_3)", () => {
      parsed.forEach((p, i) => {
        if (!p.json.ok) return;
        const result = convertWorkflow(p.json.value, { floats: p.json.floats });
        if (result.ok) checkVariableNames(p.json.value, (items[i] as Item).turn);
      });
      return parsed.length;
    }),
    phase("official verdict (steps 1_1–1_3, from text)", () => {
      for (const item of items) officialVerdict(parseResponse(recordInput(item.record)), item.turn);
      return items.length;
    }),
    phase(`YAML export (${converted.length} converted)`, () => {
      for (const { conversion, name } of converted) toDifyYaml(buildDifyDsl(conversion, name));
      return converted.length;
    }),
    phase("scoreResponse (verdict + analysis + judge + repairs)", () => {
      for (const item of items) scoreResponse(recordInput(item.record), item.turn);
      return items.length;
    }),
  ];

  const rssMb = peakRssMb();
  console.log(`Chat2Workflow scoring benchmark — ${items.length} responses from ${corpus.runs.length} run files (${dir})`);
  console.log(`corpus load: ${loadMs.toFixed(0)} ms; ${RUNS} timed runs per phase after ${WARMUPS} warm-ups, GC between runs`);
  console.log(`load average (1, 5, 15 min): ${loadBefore} before, ${formatLoad()} after\n`);
  const header = ["phase", "median ms", "min ms", "cpu ms", "µs/response", "n"];
  const rows = results.map((r) => [
    r.name,
    r.medianMs.toFixed(1),
    r.minMs.toFixed(1),
    r.cpuMs === null ? "-" : r.cpuMs.toFixed(1),
    r.perResponseUs.toFixed(1),
    String(r.count),
  ]);
  printTable(header, rows);
  console.log(`\npeak RSS: ${rssMb.toFixed(0)} MB; peak heap used (sampled): ${(peakHeap / 1024 / 1024).toFixed(0)} MB`);
  console.log("cpu ms: median CPU time of the main thread per timed run (excludes waiting for a CPU on a busy machine)");
}

runMain(main);
