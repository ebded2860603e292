// `npm run bench:adversarial`: how the analyses of model text (scoring, the response view, diffs, the agentic checks,
// judge replies; test/support/adversarial.ts) scale on hostile text. For each known hostile pattern, the median time
// over RUNS runs at 8, 16, 32 and 64 thousand characters, and the ratio of the largest to the smallest: about 8 when
// the work is linear, 64 when quadratic. Exits 1 when a ratio exceeds MAX_RATIO (generous, for a busy machine).
//   ADVERSARIAL_SIZES  comma-separated sizes in characters (default 8000,16000,32000,64000)
import { loadavg } from "node:os";
import { analyseEverything, KNOWN_PATTERNS, repeatTo } from "../../test/support/adversarial";
import { collectGarbage, median, printTable, runMain } from "./common";

const SIZES = (process.env.ADVERSARIAL_SIZES ?? "8000,16000,32000,64000").split(",").map(Number);
const RUNS = 3;
const MAX_RATIO = 20;

function timeOnce(text: string): number {
  collectGarbage();
  const started = performance.now();
  analyseEverything(text);
  return performance.now() - started;
}

runMain(async () => {
  console.log(`load average before: ${loadavg().map((load) => load.toFixed(2)).join(" ")}`);
  // Warm-up: compile every path once on small inputs.
  for (const pattern of KNOWN_PATTERNS) analyseEverything(repeatTo(pattern, 2000));
  const rows: string[][] = [];
  let worst = 0;
  for (const pattern of KNOWN_PATTERNS) {
    const medians = SIZES.map((size) => median(Array.from({ length: RUNS }, () => timeOnce(repeatTo(pattern, size)))));
    const ratio = medians.at(-1)! / Math.max(medians[0]!, 0.5);
    worst = Math.max(worst, ratio);
    rows.push([JSON.stringify(pattern), ...medians.map((ms) => ms.toFixed(1)), ratio.toFixed(1)]);
  }
  printTable(["pattern", ...SIZES.map((size) => `${size / 1000}k ms`), `ratio ${SIZES.at(-1)! / SIZES[0]!}x size`], rows);
  console.log(`load average after: ${loadavg().map((load) => load.toFixed(2)).join(" ")}`);
  console.log(`worst ratio ${worst.toFixed(1)} (linear ≈ ${SIZES.at(-1)! / SIZES[0]!}, limit ${MAX_RATIO})`);
  if (worst > MAX_RATIO) throw new Error(`a ratio of ${worst.toFixed(1)} is over ${MAX_RATIO}: some analysis is not linear in its input`);
});
