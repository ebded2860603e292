// `npm run bench:viewer`: the workflow viewer's speed. In Node: view-model + layout time of the largest shared
// workflow (target with the first render: ≤ 200 ms) and of a synthetic 300-node workflow (target ≤ 1 s). In
// Chromium (Playwright, the real WorkflowCanvas bundled with esbuild): time from render start to the canvas's
// painted mark, and frame times while zooming with the wheel and panning by drag on the 300-node graph.
// Medians over repeated runs; `--json` prints one JSON document.
import { readFileSync, readdirSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import path from "node:path";
import { chromium, type Page } from "@playwright/test";
import { build } from "esbuild";
import postcss from "postcss";
import tailwind from "@tailwindcss/postcss";
import { locateBenchmarkDir } from "../../lib/server/benchmark-location";
import { layoutWorkflowView, type LaidOutView } from "../../lib/viewer/layout";
import { buildWorkflowView } from "../../lib/viewer/model";
import { syntheticWorkflow } from "../../lib/viewer/synthetic";
import { parseResponse } from "../../lib/workflow/response";
import { scoreResponse } from "../../lib/workflow/score";
import type { JsonValue } from "../../lib/workflow/python-values";
import { collectGarbage, median, printTable, quantile, runMain } from "./common";

const ROOT = path.resolve(__dirname, "../..");
const LAYOUT_RUNS = 21;
const RENDER_RUNS = 7;
const SYNTHETIC_NODES = 300;
const TARGETS = { largestMs: 200, syntheticLayoutMs: 1000, frameP95Ms: 50 };
const JSON_OUTPUT = process.argv.includes("--json");
const log = (line: string) => {
  if (!JSON_OUTPUT) console.log(line);
};

interface Sample {
  name: string;
  nodes: number;
  edges: number;
  workflow: JsonValue;
  diagnostics: ReturnType<typeof scoreResponse>["diagnostics"];
}

/** The recorded workflow with the most nodes across the shared runs (or the demo runs when they are absent). */
function largestWorkflow(): Sample {
  const shared = locateBenchmarkDir({ projectDir: ROOT });
  const dir = shared.ok ? path.join(shared.dir, "runs") : path.join(ROOT, "prisma/demo/runs");
  if (!shared.ok) log(`• ${shared.message} Using the demo runs.`);
  let best: Sample | null = null;
  for (const file of readdirSync(dir).filter((name) => name.endsWith(".json") && !name.includes("generation"))) {
    const records = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as { task: string; round: number; node_selection: string | null; design_principle: string | null; workflow: string | null }[];
    for (const record of records) {
      const parsed = parseResponse({ nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow });
      if (!parsed.json.ok) continue;
      const value = parsed.json.value as { nodes_info?: unknown; edges?: unknown };
      const nodes = Array.isArray(value.nodes_info) ? value.nodes_info.length : 0;
      if (best && nodes <= best.nodes) continue;
      const scored = scoreResponse({ nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow }, { inputVars: [], outputVars: [], keyNodes: [] });
      best = { name: `${file} ${record.task} round ${record.round}`, nodes, edges: Array.isArray(value.edges) ? value.edges.length : 0, workflow: parsed.json.value, diagnostics: scored.diagnostics };
    }
  }
  if (!best) throw new Error(`no parsable workflow in ${dir}`);
  return best;
}

function timeLayout(sample: Sample): { medianMs: number; minMs: number; view: LaidOutView } {
  let view = layoutWorkflowView(buildWorkflowView({ workflow: sample.workflow, diagnostics: sample.diagnostics }));
  const times: number[] = [];
  for (let i = 0; i < LAYOUT_RUNS; i++) {
    collectGarbage();
    const start = performance.now();
    view = layoutWorkflowView(buildWorkflowView({ workflow: sample.workflow, diagnostics: sample.diagnostics }));
    times.push(performance.now() - start);
  }
  return { medianMs: median(times), minMs: Math.min(...times), view };
}

async function harnessAssets(): Promise<{ js: string; css: string }> {
  const result = await build({
    entryPoints: [path.join(__dirname, "viewer-harness.tsx")],
    bundle: true,
    write: false,
    outdir: "/harness",
    format: "iife",
    minify: true,
    jsx: "automatic",
    define: { "process.env.NODE_ENV": '"production"' },
    tsconfig: path.join(ROOT, "tsconfig.json"),
    loader: { ".css": "css" },
    logLevel: "error",
  });
  const js = result.outputFiles.find((file) => file.path.endsWith(".js"))?.text ?? "";
  const bundledCss = result.outputFiles.find((file) => file.path.endsWith(".css"))?.text ?? "";
  // The app's Tailwind build, so node boxes are styled as in the app.
  const globals = path.join(ROOT, "app/globals.css");
  const tailwindCss = (await postcss([tailwind({ base: ROOT })]).process(readFileSync(globals, "utf8"), { from: globals })).css;
  return { js, css: `${tailwindCss}\n${bundledCss}` };
}

function page(view: LaidOutView, assets: { js: string; css: string }): string {
  // `</` never appears raw inside the inline scripts.
  const data = JSON.stringify(view).replace(/</g, "\\u003c");
  const js = assets.js.replace(/<\/script/gi, "<\\/script");
  return `<!doctype html><html><head><meta charset="utf-8"><style>${assets.css}</style></head><body style="margin:0"><div id="root" style="width:1400px"></div><script>window.__BENCH_VIEW__=${data};</script><script>${js}</script></body></html>`;
}

const HARNESS_URL = "http://localhost/viewer-bench";

/** A fresh document per run (a new performance timeline), served from memory. */
async function renderOnce(browserPage: Page, html: string): Promise<number> {
  await browserPage.unroute(HARNESS_URL);
  await browserPage.route(HARNESS_URL, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
  await browserPage.goto(HARNESS_URL, { waitUntil: "load" });
  await browserPage.waitForFunction(() => performance.getEntriesByName("workflow-canvas:painted").length > 0, null, { timeout: 30_000 });
  return browserPage.evaluate(() => {
    const start = performance.getEntriesByName("bench:render-start")[0]!.startTime;
    const painted = performance.getEntriesByName("workflow-canvas:painted")[0]!.startTime;
    return painted - start;
  });
}

/** Frame intervals while wheel-zooming and drag-panning the canvas. */
async function interactionFrames(browserPage: Page): Promise<number[]> {
  // Let the page settle after its first paint (fonts, resize observers) before interacting.
  await browserPage.waitForTimeout(500);
  // A string, so the bundler's helpers never leak into the page.
  await browserPage.evaluate(`(() => {
    const frames = [];
    let last = performance.now();
    window.__frames = frames;
    const tick = (now) => {
      frames.push(now - last);
      last = now;
      window.__raf = requestAnimationFrame(tick);
    };
    window.__raf = requestAnimationFrame(tick);
  })()`);
  const box = (await browserPage.locator(".react-flow__pane").boundingBox())!;
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  await browserPage.mouse.move(cx, cy);
  for (let i = 0; i < 12; i++) {
    await browserPage.mouse.wheel(0, i < 6 ? -120 : 120);
    await browserPage.waitForTimeout(30);
  }
  for (let round = 0; round < 3; round++) {
    await browserPage.mouse.move(cx, cy);
    await browserPage.mouse.down();
    for (let step = 1; step <= 30; step++) await browserPage.mouse.move(cx + step * 10 * (round % 2 ? -1 : 1), cy + step * 4);
    await browserPage.mouse.up();
  }
  // The first interval includes the time before the recorder started.
  return browserPage.evaluate<number[]>("(() => { cancelAnimationFrame(window.__raf); return window.__frames.slice(1); })()");
}

async function main(): Promise<void> {
  const largest = largestWorkflow();
  const synthetic: Sample = (() => {
    const workflow = syntheticWorkflow(SYNTHETIC_NODES) as unknown as JsonValue;
    const scored = scoreResponse({ nodeSelection: "", designPrinciple: "", workflow: JSON.stringify(workflow) }, { inputVars: [], outputVars: [], keyNodes: [] });
    const value = workflow as { nodes_info: unknown[]; edges: unknown[] };
    return { name: `synthetic ${SYNTHETIC_NODES} nodes`, nodes: value.nodes_info.length, edges: value.edges.length, workflow, diagnostics: scored.diagnostics };
  })();

  log(`• largest workflow: ${largest.name} (${largest.nodes} nodes, ${largest.edges} edges)`);
  const largestLayout = timeLayout(largest);
  const syntheticLayout = timeLayout(synthetic);

  log("• bundling the canvas for Chromium");
  const assets = await harnessAssets();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost"],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const browserPage = await context.newPage();
    const render = async (view: LaidOutView): Promise<{ medianMs: number; minMs: number }> => {
      const html = page(view, assets);
      await renderOnce(browserPage, html);
      const times: number[] = [];
      for (let i = 0; i < RENDER_RUNS; i++) times.push(await renderOnce(browserPage, html));
      return { medianMs: median(times), minMs: Math.min(...times) };
    };
    const largestRender = await render(largestLayout.view);
    const syntheticRender = await render(syntheticLayout.view);
    const frames = await interactionFrames(browserPage);
    const frameStats = {
      frames: frames.length,
      medianMs: median(frames),
      p95Ms: quantile(frames, 0.95),
      maxMs: Math.max(...frames),
      over50Ms: frames.filter((f) => f > 50).length,
    };

    const result = {
      machine: { cpus: cpus().length, loadAverage1m: Number(loadavg()[0]!.toFixed(2)) },
      largest: { workflow: largest.name, nodes: largest.nodes, edges: largest.edges, layoutMs: largestLayout.medianMs, renderMs: largestRender.medianMs, totalMs: largestLayout.medianMs + largestRender.medianMs, targetMs: TARGETS.largestMs },
      synthetic: {
        nodes: syntheticLayout.view.nodes.length,
        edges: syntheticLayout.view.edges.length,
        layoutMs: syntheticLayout.medianMs,
        layoutTargetMs: TARGETS.syntheticLayoutMs,
        renderMs: syntheticRender.medianMs,
        interaction: { ...frameStats, targetP95Ms: TARGETS.frameP95Ms },
      },
    };
    if (JSON_OUTPUT) {
      console.log(JSON.stringify(result, null, 2));
      return;
    }
    const ms = (value: number) => value.toFixed(1);
    // Figures depend on how busy the machine is; say so next to them.
    log(`• ${result.machine.cpus} CPUs, load average ${result.machine.loadAverage1m} (1 min)`);
    printTable(
      ["measure", "median ms", "target ms", "met"],
      [
        [`largest (${largest.nodes} nodes): view model + layout (Node)`, ms(largestLayout.medianMs), "", ""],
        [`largest: first render to painted (Chromium)`, ms(largestRender.medianMs), "", ""],
        [`largest: layout + first render`, ms(result.largest.totalMs), String(TARGETS.largestMs), result.largest.totalMs <= TARGETS.largestMs ? "yes" : "NO"],
        [`synthetic ${result.synthetic.nodes} nodes: view model + layout (Node)`, ms(syntheticLayout.medianMs), String(TARGETS.syntheticLayoutMs), syntheticLayout.medianMs <= TARGETS.syntheticLayoutMs ? "yes" : "NO"],
        [`synthetic: first render to painted (Chromium)`, ms(syntheticRender.medianMs), "", ""],
        [`synthetic: frame time while zooming and panning, median`, ms(frameStats.medianMs), "", ""],
        [`synthetic: frame time while zooming and panning, p95`, ms(frameStats.p95Ms), String(TARGETS.frameP95Ms), frameStats.p95Ms <= TARGETS.frameP95Ms ? "yes" : "NO"],
        [`synthetic: longest frame (${frameStats.frames} frames, ${frameStats.over50Ms} over 50 ms)`, ms(frameStats.maxMs), "", ""],
      ],
    );
  } finally {
    await browser.close();
  }
}

runMain(main);
