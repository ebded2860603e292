// `npm run bench:score`: times the scoring core over every recorded response of the shared benchmark.
// Loads the corpus once, then runs each phase 5 times and prints medians, per-response times and memory.
import { readBenchmarkDir } from "../../lib/server/benchmark-files";
import type { RunRecord } from "../../lib/benchmark/runs";
import type { TurnSpec } from "../../lib/benchmark/turn";
import { convertWorkflow, type Conversion } from "../../lib/workflow/convert";
import { buildDifyDsl, difyAppName } from "../../lib/workflow/dify-dsl";
import { toDifyYaml } from "../../lib/workflow/dify-yaml";
import { checkVariableNames, officialVerdict } from "../../lib/workflow/official-verdict";
import { parseResponse, type ParsedResponse } from "../../lib/workflow/response";
import { scoreResponse } from "../../lib/workflow/score";
import { collectGarbage, locateBenchmark, median, peakRssMb, printTable, runMain } from "./common";

const RUNS = 5;

interface Item {
  record: RunRecord;
  turn: TurnSpec;
}

interface PhaseResult {
  name: string;
  medianMs: number;
  minMs: number;
  perResponseUs: number;
  count: number;
}

let peakHeap = 0;
function sampleHeap(): void {
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}

/** Runs `body` once to warm up, then RUNS times; `body` returns how many responses it handled. */
function phase(name: string, body: () => number): PhaseResult {
  let count = body();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    collectGarbage();
    const start = performance.now();
    count = body();
    times.push(performance.now() - start);
    sampleHeap();
  }
  const medianMs = median(times);
  return { name, medianMs, minMs: Math.min(...times), perResponseUs: count ? (medianMs * 1000) / count : 0, count };
}

function recordInput(record: RunRecord) {
  return { nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow };
}

async function main(): Promise<void> {
  const dir = locateBenchmark();
  const loadStart = performance.now();
  const corpus = await readBenchmarkDir(dir);
  if (!corpus.ok) {
    for (const issue of corpus.issues) console.error(issue.message);
    process.exit(1);
  }
  const items: Item[] = corpus.value.runs.flatMap((run) =>
    run.records.map((record) => {
      const turn = corpus.value.turns.get(`${record.task}_${record.round}`);
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
  console.log(`Chat2Workflow scoring benchmark — ${items.length} responses from ${corpus.value.runs.length} run files (${dir})`);
  console.log(`corpus load: ${loadMs.toFixed(0)} ms; ${RUNS} timed runs per phase after one warm-up, GC between runs\n`);
  const header = ["phase", "median ms", "min ms", "µs/response", "n"];
  const rows = results.map((r) => [r.name, r.medianMs.toFixed(1), r.minMs.toFixed(1), r.perResponseUs.toFixed(1), String(r.count)]);
  printTable(header, rows);
  console.log(`\npeak RSS: ${rssMb.toFixed(0)} MB; peak heap used (sampled): ${(peakHeap / 1024 / 1024).toFixed(0)} MB`);
}

runMain(main);
