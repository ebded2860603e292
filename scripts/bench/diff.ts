// `npm run bench:diff`: times the workflow diff on the shared benchmark's consecutive turns (model × task × round r
// vs r + 1). The largest pair (by node count) is diffed RUNS times after a warm-up: median wall and CPU time, target
// ≤ 20 ms. Then every pair of the corpus, PASSES times: the median (and p90, max) per-pair time over the corpus.
import { consecutiveTurns, type RunRecord } from "../../lib/benchmark/runs";
import { diffSideFromResponse, diffWorkflows, type DiffSide } from "../../lib/diff";
import { collectGarbage, locateBenchmark, median, peakRssMb, printTable, quantile, runMain } from "./common";
import { loadBenchmarkCorpus } from "./corpus";

const RUNS = 200;
const WARMUP = 30;
const PASSES = 5;
const TARGET_MS = 20;

interface Pair {
  label: string;
  before: DiffSide;
  after: DiffSide;
  nodes: number;
}

function nodeCount(side: DiffSide): number {
  const workflow = side.workflow;
  const nodes = typeof workflow === "object" && workflow !== null && !Array.isArray(workflow) ? (workflow as { nodes_info?: unknown }).nodes_info : undefined;
  return Array.isArray(nodes) ? nodes.length : 0;
}

/** Wall and CPU milliseconds of one call (CPU time is steadier on a busy machine). */
function timeOnce(body: () => void): { wall: number; cpu: number } {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  body();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

async function main(): Promise<void> {
  const dir = locateBenchmark();
  const corpus = await loadBenchmarkCorpus(dir);
  const sideOf = (record: RunRecord): DiffSide =>
    diffSideFromResponse(
      { nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow },
      corpus.turns.get(`${record.task}_${record.round}`) ?? null,
    );
  const pairs: Pair[] = consecutiveTurns(corpus.runs).map(({ model, earlier, later }) => {
    const before = sideOf(earlier);
    const after = sideOf(later);
    return { label: `${model} ${earlier.task} ${earlier.round}→${later.round}`, before, after, nodes: nodeCount(before) + nodeCount(after) };
  });
  if (pairs.length === 0) {
    console.error("No consecutive turns found in the recorded runs.");
    process.exit(1);
  }
  const largest = pairs.reduce((best, pair) => (pair.nodes > best.nodes ? pair : best));

  for (let i = 0; i < WARMUP; i += 1) diffWorkflows(largest.before, largest.after);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    if (i % 20 === 0) collectGarbage();
    const t = timeOnce(() => diffWorkflows(largest.before, largest.after));
    wall.push(t.wall);
    cpu.push(t.cpu);
  }
  const sample = diffWorkflows(largest.before, largest.after);

  // Whole corpus: one warm-up pass, then PASSES timed passes; each pair's time is its median over the passes.
  for (const pair of pairs) diffWorkflows(pair.before, pair.after);
  const perPair: number[][] = pairs.map(() => []);
  const passTotals: number[] = [];
  for (let pass = 0; pass < PASSES; pass += 1) {
    collectGarbage();
    const start = performance.now();
    pairs.forEach((pair, i) => (perPair[i] as number[]).push(timeOnce(() => diffWorkflows(pair.before, pair.after)).wall));
    passTotals.push(performance.now() - start);
  }
  const pairMedians = perPair.map((times) => median(times));

  console.log(`Workflow diff benchmark — ${pairs.length} consecutive-turn pairs from ${corpus.runs.length} run files (${dir})\n`);
  console.log(`Largest pair: ${largest.label} (${nodeCount(largest.before)} + ${nodeCount(largest.after)} nodes; ${sample.summary.changeCount} changes)`);
  printTable(
    ["largest pair", "median ms", "min ms", "p90 ms", "runs"],
    [
      ["wall time", median(wall).toFixed(2), Math.min(...wall).toFixed(2), quantile(wall, 0.9).toFixed(2), String(RUNS)],
      ["CPU time", median(cpu).toFixed(2), Math.min(...cpu).toFixed(2), quantile(cpu, 0.9).toFixed(2), String(RUNS)],
    ],
  );
  const verdict = median(wall) <= TARGET_MS ? "meets" : "MISSES";
  console.log(`target ≤ ${TARGET_MS} ms (median wall): ${verdict}\n`);
  printTable(
    ["all pairs (per-pair median of 5 passes)", "median ms", "p90 ms", "max ms", "pairs"],
    [["wall time", median(pairMedians).toFixed(3), quantile(pairMedians, 0.9).toFixed(3), Math.max(...pairMedians).toFixed(3), String(pairs.length)]],
  );
  console.log(`whole corpus per pass: median ${median(passTotals).toFixed(0)} ms; peak RSS ${peakRssMb().toFixed(0)} MB`);
}

runMain(main);
