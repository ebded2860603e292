// The launcher behind `npm run <cli>`: builds a bundle on first use, reuses it until an input changes, runs it with
// the arguments it was given.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "..");
// Inside the project, as the real cache is: bundles load their external packages from node_modules.
mkdirSync(path.join(ROOT, "node_modules", ".cache"), { recursive: true });
const cache = mkdtempSync(path.join(ROOT, "node_modules", ".cache", "studio-cli-test-"));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

function launch(...args: string[]) {
  return spawnSync(process.execPath, [path.join(ROOT, "scripts/run-cli.cjs"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, STUDIO_CLI_CACHE_DIR: cache },
  });
}

describe("the command-line launcher", () => {
  const bundle = path.join(cache, "scripts__user.cjs");
  const manifest = path.join(cache, "scripts__user.json");

  it("builds a CLI on first use and runs it with its own arguments, stdout untouched", () => {
    const result = launch("scripts/user.ts", "--help");
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.startsWith("Usage: npm run user -- <command> [options]")).toBe(true);
    expect(result.stderr).toBe("");
    const inputs = (JSON.parse(readFileSync(manifest, "utf8")) as { inputs: string[] }).inputs;
    expect(inputs).toContain("scripts/user.ts");
    expect(inputs).toContain("lib/server/users.ts");
    expect(inputs.some((input) => input.startsWith("node_modules/"))).toBe(false);
  }, 60_000);

  it("reuses the bundle while its inputs are unchanged and rebuilds when one changes", () => {
    const built = statSync(bundle).mtimeMs;
    expect(launch("scripts/user.ts", "--help").status).toBe(0);
    expect(statSync(bundle).mtimeMs).toBe(built);
    // Stand in for a source file: an extra input the manifest lists, then changed.
    const input = path.join(cache, "input.ts");
    writeFileSync(input, "one");
    const recorded = JSON.parse(readFileSync(manifest, "utf8")) as { inputs: string[] };
    writeFileSync(manifest, JSON.stringify({ ...recorded, inputs: [...recorded.inputs, input] }));
    writeFileSync(input, "two, longer");
    expect(launch("scripts/user.ts", "--help").status).toBe(0);
    expect(statSync(bundle).mtimeMs).toBeGreaterThan(built);
  }, 60_000);

  it("keeps the bundle when a source's modification time changes but its bytes do not", () => {
    const built = statSync(bundle).mtimeMs;
    const recorded = JSON.parse(readFileSync(manifest, "utf8")) as { inputs: string[] };
    const source = recorded.inputs.find((input) => input.startsWith("scripts/"));
    expect(source).toBeDefined();
    const { mtime } = statSync(path.join(ROOT, source as string));
    try {
      utimesSync(path.join(ROOT, source as string), new Date(), new Date(Date.now() + 60_000));
      expect(launch("scripts/user.ts", "--help").status).toBe(0);
      expect(statSync(bundle).mtimeMs).toBe(built);
    } finally {
      utimesSync(path.join(ROOT, source as string), mtime, mtime);
    }
  }, 60_000);

  it("writes V8's code cache of the bundle after a run", () => {
    expect(existsSync(`${bundle}.v8cache`)).toBe(true);
    expect(statSync(`${bundle}.v8cache`).size).toBeGreaterThan(1000);
  });

  it("notes whether a run asked for a worker thread; the run after one that did prints the same", () => {
    const demo = path.join(ROOT, "prisma", "demo");
    const notes = path.join(cache, "scripts__score.cjs.v8cache.json");
    const scoreRuns = (run: string) => launch("scripts/score.ts", "--benchmark", path.join(demo, "benchmark"), "--run", path.join(demo, "runs", run), "--json");
    const built = scoreRuns("");
    expect(built.status, built.stderr).toBe(0);
    expect(JSON.parse(readFileSync(notes, "utf8"))).toMatchObject({ workers: true });
    // This run starts its worker thread before the bundle loads (the notes say the last run asked for one).
    const early = scoreRuns("");
    expect(early.status, early.stderr).toBe(0);
    expect(early.stdout).toBe(built.stdout);
    const single = scoreRuns("demo_alpha.json");
    expect(single.status, single.stderr).toBe(0);
    expect(JSON.parse(readFileSync(notes, "utf8"))).toMatchObject({ workers: false });
  }, 120_000);

  it("writes the code cache under the flags Node starts with, so the next run's threads accept it", () => {
    const demo = path.join(ROOT, "prisma", "demo");
    const scoreBundle = path.join(cache, "scripts__score.cjs");
    const scoreRuns = () => launch("scripts/score.ts", "--benchmark", path.join(demo, "benchmark"), "--run", path.join(demo, "runs"), "--json");
    expect(scoreRuns().status).toBe(0);
    const notes = JSON.parse(readFileSync(`${scoreBundle}.v8cache.json`, "utf8")) as { budgetFlag: unknown };
    expect(notes.budgetFlag).toMatch(/^--interrupt-budget=\d+$/);
    // The run raised V8's interrupt budget once its threads had compiled; a plain Node process still takes its cache.
    const compile = `const { Script } = require("node:vm"); const { readFileSync } = require("node:fs"); const file = process.argv[1];
      const script = new Script(require("node:module").wrap(readFileSync(file, "utf8")), { filename: file, cachedData: readFileSync(file + ".v8cache") });
      process.stdout.write(script.cachedDataRejected ? "rejected" : "accepted");`;
    const plain = spawnSync(process.execPath, ["-e", compile, scoreBundle], { encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "" } });
    expect(plain.stdout, plain.stderr).toBe("accepted");
    // And the next run, finding it accepted, leaves it as it is.
    const cached = statSync(`${scoreBundle}.v8cache`).mtimeMs;
    expect(scoreRuns().status).toBe(0);
    expect(statSync(`${scoreBundle}.v8cache`).mtimeMs).toBe(cached);
  }, 120_000);

  it("ends the worker thread it started early when the bundle turns out stale, rebuilds, and prints the same", () => {
    const demo = path.join(ROOT, "prisma", "demo");
    const scoreBundle = path.join(cache, "scripts__score.cjs");
    const scoreManifest = path.join(cache, "scripts__score.json");
    const scoreRuns = () => launch("scripts/score.ts", "--benchmark", path.join(demo, "benchmark"), "--run", path.join(demo, "runs"), "--json");
    const before = scoreRuns();
    expect(before.status, before.stderr).toBe(0);
    expect(JSON.parse(readFileSync(`${scoreBundle}.v8cache.json`, "utf8"))).toMatchObject({ workers: true });
    const built = statSync(scoreBundle).mtimeMs;
    // An extra input the manifest lists, then changed: the next run starts its worker, then finds the bundle stale.
    const input = path.join(cache, "score-input.ts");
    writeFileSync(input, "one");
    const recorded = JSON.parse(readFileSync(scoreManifest, "utf8")) as { inputs: string[] };
    writeFileSync(scoreManifest, JSON.stringify({ ...recorded, inputs: [...recorded.inputs, input] }));
    writeFileSync(input, "two, longer");
    const rebuilt = scoreRuns();
    expect(rebuilt.status, rebuilt.stderr).toBe(0);
    expect(statSync(scoreBundle).mtimeMs).toBeGreaterThan(built);
    expect(rebuilt.stdout).toBe(before.stdout);
  }, 120_000);

  it("refuses an entry point outside scripts/", () => {
    const result = launch("lib/result.ts");
    expect(result.status).toBe(1);
    expect(result.stderr).toBe("error: no command-line entry point lib/result.ts under scripts/\n");
  });
});
