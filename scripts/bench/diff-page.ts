// `npm run bench:diff-page`: the server-side work of a diff page, per pair of consecutive turns of the shared
// benchmark's recorded runs: both turns re-scored, diffed, regressions found, both graphs and the merged graph laid
// out (buildComparison), and the size of the plain data handed to the browser. The largest pair (by node count) is
// timed RUNS times after a warm-up (median wall time, with the diff alone and the scoring alone for comparison, and
// the merged graph's layout, which the browser does when the user asks for it); then every pair, PASSES times
// (per-pair median; median, p90 and max over the corpus).
import { loadavg } from "node:os";
import { consecutiveTurns, type RunRecord } from "../../lib/benchmark/runs";
import { diffWorkflows } from "../../lib/diff";
import { buildComparison, layoutMerged, type ComparisonResponseInput } from "../../lib/diff-view/comparison";
import { scoreResponse } from "../../lib/workflow/score";
import { collectGarbage, locateBenchmark, median, peakRssMb, printTable, quantile, runMain } from "./common";
import { loadBenchmarkCorpus } from "./corpus";

const RUNS = 60;
const WARMUP = 10;
const PASSES = 3;
/** The page's budget for its own server work (the diff alone is held to 20 ms by bench:diff). */
const TARGET_MS = 150;

interface Pair {
  label: string;
  before: ComparisonResponseInput;
  after: ComparisonResponseInput;
  nodes: number;
}

function nodeCount(workflow: string | null): number {
  if (!workflow) return 0;
  try {
    const value = JSON.parse(workflow) as { nodes_info?: unknown };
    return Array.isArray(value.nodes_info) ? value.nodes_info.length : 0;
  } catch {
    return 0;
  }
}

function time(body: () => unknown): number {
  const start = performance.now();
  body();
  return performance.now() - start;
}

async function main(): Promise<void> {
  const dir = locateBenchmark();
  const corpus = await loadBenchmarkCorpus(dir);
  const inputOf = (record: RunRecord): ComparisonResponseInput | null => {
    const turn = corpus.turns.get(`${record.task}_${record.round}`);
    if (!turn) return null;
    return { rawText: null, nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow, turn };
  };
  const pairs: Pair[] = consecutiveTurns(corpus.runs).flatMap(({ model, earlier, later }) => {
    const before = inputOf(earlier);
    const after = inputOf(later);
    if (!before || !after) return [];
    return [{ label: `${model} ${earlier.task} ${earlier.round}→${later.round}`, before, after, nodes: nodeCount(earlier.workflow) + nodeCount(later.workflow) }];
  });
  if (pairs.length === 0) {
    console.error("No consecutive turns found in the recorded runs.");
    process.exit(1);
  }
  const largest = pairs.reduce((best, pair) => (pair.nodes > best.nodes ? pair : best));
  const score = (input: ComparisonResponseInput) => scoreResponse({ nodeSelection: input.nodeSelection, designPrinciple: input.designPrinciple, workflow: input.workflow }, input.turn);

  for (let i = 0; i < WARMUP; i += 1) buildComparison({ before: largest.before, after: largest.after });
  const whole: number[] = [];
  const scoring: number[] = [];
  const diffing: number[] = [];
  const merging: number[] = [];
  const beforeScore = score(largest.before);
  const afterScore = score(largest.after);
  const sideOf = (scored: ReturnType<typeof score>, input: ComparisonResponseInput) => ({
    workflow: scored.parsed.json.ok ? scored.parsed.json.value : null,
    nodeSelection: scored.parsed.nodeSelection,
    turn: input.turn,
  });
  for (let i = 0; i < RUNS; i += 1) {
    if (i % 10 === 0) collectGarbage();
    whole.push(time(() => buildComparison({ before: largest.before, after: largest.after })));
    scoring.push(time(() => [score(largest.before), score(largest.after)]));
    diffing.push(time(() => diffWorkflows(sideOf(beforeScore, largest.before), sideOf(afterScore, largest.after))));
  }
  const sample = buildComparison({ before: largest.before, after: largest.after });
  for (let i = 0; i < RUNS; i += 1) merging.push(time(() => layoutMerged(sample)));
  const payload = Buffer.byteLength(JSON.stringify(sample));

  for (const pair of pairs) buildComparison({ before: pair.before, after: pair.after });
  const perPair: number[][] = pairs.map(() => []);
  const sizes: number[] = [];
  for (let pass = 0; pass < PASSES; pass += 1) {
    collectGarbage();
    pairs.forEach((pair, i) => {
      let result: ReturnType<typeof buildComparison> | undefined;
      (perPair[i] as number[]).push(time(() => (result = buildComparison({ before: pair.before, after: pair.after }))));
      if (pass === 0 && result) sizes.push(Buffer.byteLength(JSON.stringify(result)));
    });
  }
  const pairMedians = perPair.map((times) => median(times));

  console.log(`Diff page server work — ${pairs.length} consecutive-turn pairs from ${corpus.runs.length} run files (${dir})`);
  console.log(`machine load average (1, 5, 15 min): ${loadavg().map((n) => n.toFixed(2)).join(", ")}\n`);
  console.log(`Largest pair: ${largest.label} (${largest.nodes} nodes in both; ${sample.diff.summary.changeCount} changes; ${(payload / 1024).toFixed(0)} KB of page data)`);
  printTable(
    ["largest pair, wall time", "median ms", "min ms", "p90 ms", "runs"],
    [
      ["buildComparison (all of it)", median(whole).toFixed(2), Math.min(...whole).toFixed(2), quantile(whole, 0.9).toFixed(2), String(RUNS)],
      ["  of which: scoring both turns", median(scoring).toFixed(2), Math.min(...scoring).toFixed(2), quantile(scoring, 0.9).toFixed(2), String(RUNS)],
      ["  of which: diffWorkflows", median(diffing).toFixed(2), Math.min(...diffing).toFixed(2), quantile(diffing, 0.9).toFixed(2), String(RUNS)],
      ["layoutMerged (browser, on demand)", median(merging).toFixed(2), Math.min(...merging).toFixed(2), quantile(merging, 0.9).toFixed(2), String(RUNS)],
    ],
  );
  console.log(`target ≤ ${TARGET_MS} ms (median buildComparison): ${median(whole) <= TARGET_MS ? "meets" : "MISSES"}\n`);
  printTable(
    [`all pairs (per-pair median of ${PASSES} passes)`, "median", "p90", "max", "pairs"],
    [
      ["buildComparison ms", median(pairMedians).toFixed(2), quantile(pairMedians, 0.9).toFixed(2), Math.max(...pairMedians).toFixed(2), String(pairs.length)],
      ["page data KB", (median(sizes) / 1024).toFixed(0), (quantile(sizes, 0.9) / 1024).toFixed(0), (Math.max(...sizes) / 1024).toFixed(0), String(sizes.length)],
    ],
  );
  console.log(`peak RSS ${peakRssMb().toFixed(0)} MB`);
}

runMain(main);
