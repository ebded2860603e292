// `npm run score -- --coze-out <dir> --github-token-env <VAR>`: the Coze packages' HTTP nodes carry the variable's
// value where the official converter writes github_rest_token, and EMPTY without the option. Runs on the demo data.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCozeYaml } from "@/lib/workflow/coze-package";
import { readZip } from "@/lib/zip/zip";
import { benchmarkDir, benchmarkMissingReason } from "../test/support/benchmark-dir";

const ROOT = path.resolve(__dirname, "..");
const DEMO = path.join(ROOT, "prisma", "demo");
const scratch = mkdtempSync(path.join(os.tmpdir(), "c2w-score-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function score(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ["scripts/run-cli.cjs", "scripts/score.ts", "--benchmark", path.join(DEMO, "benchmark"), "--run", path.join(DEMO, "runs", "demo_alpha.json"), ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "", ...env },
  });
}

type Tree = Record<string, unknown>;

/** The bearer token of every HTTP node in every package written under `dir`. */
function bearerTokens(dir: string): string[] {
  const tokens: string[] = [];
  for (const file of readdirSync(path.join(dir, "demo_alpha"))) {
    const entries = readZip(readFileSync(path.join(dir, "demo_alpha", file)));
    if (!entries.ok) throw new Error(`${file}: ${entries.issues[0]}`);
    const workflow = parseCozeYaml(new TextDecoder().decode(entries.value[1]?.data));
    if (!workflow.ok) throw new Error(`${file}: ${workflow.issues[0]}`);
    const nodes = ((workflow.value as Tree).nodes as Tree[]).flatMap((node) => [node, ...((node.nodes as Tree[] | undefined) ?? [])]);
    for (const node of nodes.filter((n) => n.type === "http")) {
      tokens.push((((node.parameters as Tree).auth as Tree).authData as { bearerTokenData: { input: { value: string } }[] }).bearerTokenData[0]!.input.value);
    }
  }
  return tokens;
}

describe("npm run score", () => {
  it("writes the variable's value into every HTTP node of the Coze packages", () => {
    const out = path.join(scratch, "with-token");
    const result = score(["--coze-out", out, "--github-token-env", "C2W_TEST_GITHUB_TOKEN"], { C2W_TEST_GITHUB_TOKEN: "github_pat_from_env" });
    expect(result.status, result.stderr).toBe(0);
    const tokens = bearerTokens(out);
    expect(tokens.length).toBeGreaterThan(0);
    expect(new Set(tokens)).toEqual(new Set(["github_pat_from_env"]));
  }, 60_000);

  it("writes EMPTY without the option, and when the variable is empty", () => {
    for (const [name, args, env] of [
      ["no-option", [], {}],
      ["empty", ["--github-token-env", "C2W_TEST_GITHUB_TOKEN"], { C2W_TEST_GITHUB_TOKEN: "" }],
    ] as const) {
      const out = path.join(scratch, name);
      const result = score(["--coze-out", out, ...args], env);
      expect(result.status, result.stderr).toBe(0);
      const tokens = bearerTokens(out);
      expect(tokens.length).toBeGreaterThan(0);
      expect(new Set(tokens), name).toEqual(new Set(["EMPTY"]));
    }
  }, 60_000);

  it("refuses a variable that is not set, and the option without --coze-out (exit 2)", () => {
    const { C2W_UNSET_TOKEN: _unset, ...env } = process.env;
    const unset = spawnSync(process.execPath, ["scripts/run-cli.cjs", "scripts/score.ts", "--coze-out", path.join(scratch, "x"), "--github-token-env", "C2W_UNSET_TOKEN"], { cwd: ROOT, encoding: "utf8", env: { ...env, NODE_OPTIONS: "" } });
    expect(unset.status).toBe(2);
    expect(unset.stderr).toContain("--github-token-env C2W_UNSET_TOKEN: the environment variable C2W_UNSET_TOKEN is not set");
    const alone = score(["--github-token-env", "HOME"]);
    expect(alone.status).toBe(2);
    expect(alone.stderr).toContain("--github-token-env only applies with --coze-out");
  }, 60_000);

  it("says what to do when the benchmark is missing (exit 2)", () => {
    const missing = path.join(scratch, "no-benchmark");
    const result = spawnSync(process.execPath, ["scripts/run-cli.cjs", "scripts/score.ts", "--json"], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "", C2W_BENCHMARK_DIR: missing } });
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`score: No Chat2Workflow benchmark at ${missing} (it needs dataset/query.json): clone https://github.com/zjunlp/Chat2Workflow there, or set C2W_BENCHMARK_DIR to a copy.\n`);
    expect(result.stdout).toBe("");
  }, 60_000);

  it("starts without reading NODE_EXTRA_CA_CERTS, which only costs it start-up time", () => {
    const command = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts.score;
    const missingCerts = path.join(scratch, "no-such-ca.pem");
    const result = spawnSync("sh", ["-c", `${command} --help`], { cwd: ROOT, encoding: "utf8", env: { ...process.env, NODE_OPTIONS: "", NODE_EXTRA_CA_CERTS: missingCerts } });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain("Usage: npm run score");
    // Node warns at start-up about an extra certificate file it cannot load; a process that never reads it is silent.
    expect(result.stderr).not.toContain("extra certs");
  }, 60_000);
});

/** Every file under `dir` with its bytes, by relative path. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = path.join(relative, entry.name);
      if (entry.isDirectory()) walk(child);
      else files[child] = readFileSync(path.join(dir, child)).toString("base64");
    }
  };
  walk("");
  return files;
}

function scoreDir(benchmark: string, runs: string, args: string[]) {
  return spawnSync(process.execPath, ["scripts/run-cli.cjs", "scripts/score.ts", "--benchmark", benchmark, "--run", runs, ...args], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, NODE_OPTIONS: "" },
    maxBuffer: 64 * 1024 * 1024,
  });
}

describe("npm run score on several threads", () => {
  const benchmark = path.join(DEMO, "benchmark");
  const runs = path.join(DEMO, "runs");

  it("prints and writes the same on one thread as on three (report, JSON, YAML and Coze trees)", () => {
    const outputs = [1, 3].map((threads) => {
      const out = path.join(scratch, `threads-${threads}`);
      const written = scoreDir(benchmark, runs, ["--threads", String(threads), "--yaml-out", path.join(out, "yaml"), "--coze-out", path.join(out, "coze"), "--json"]);
      const text = scoreDir(benchmark, runs, ["--threads", String(threads)]);
      expect(written.status, written.stderr).toBe(0);
      expect(text.status, text.stderr).toBe(0);
      return { json: written.stdout, stderr: written.stderr, text: text.stdout, files: tree(out) };
    });
    const [one, three] = outputs as [(typeof outputs)[number], (typeof outputs)[number]];
    expect(Object.keys(one.files).filter((file) => file.endsWith(".yml")).length).toBeGreaterThan(10);
    expect(Object.keys(one.files).filter((file) => file.endsWith(".zip")).length).toBeGreaterThan(10);
    expect(JSON.parse(one.json).responses).toHaveLength(51);
    expect(three).toEqual(one);
  }, 120_000);

  it("names the first file that cannot be read, whichever thread read it, and writes nothing (exit 2)", () => {
    const broken = path.join(scratch, "broken-runs");
    mkdirSync(broken, { recursive: true });
    for (const file of readdirSync(runs)) copyFileSync(path.join(runs, file), path.join(broken, file));
    writeFileSync(path.join(broken, "demo_b_cut.json"), '[{"task": ');
    writeFileSync(path.join(broken, "demo_c_cut.json"), "[");
    for (const threads of [1, 3]) {
      const out = path.join(scratch, `broken-${threads}`);
      const result = scoreDir(benchmark, broken, ["--threads", String(threads), "--yaml-out", out, "--json"]);
      expect(result.status).toBe(2);
      expect(result.stderr).toBe(`score: cannot read ${path.join(broken, "demo_b_cut.json")}: ${jsonError('[{"task": ')}\n`);
      expect(result.stdout).toBe("");
      expect(existsSync(out)).toBe(false);
    }
  }, 120_000);

  it("refuses a thread count that is not a whole number of at least 1 (exit 2)", () => {
    const result = scoreDir(benchmark, runs, ["--threads", "0"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--threads 0: expected a whole number of threads, 1 or more");
  }, 60_000);
});

function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error("parses");
}

describe.skipIf(!benchmarkDir)(`npm run score over the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  it("prints the same JSON on one thread as on the default threads", () => {
    const runs = path.join(benchmarkDir as string, "runs");
    const [one, many] = [["--threads", "1"], []].map((args) => scoreDir(benchmarkDir as string, runs, ["--json", ...args]));
    expect(one?.status, one?.stderr).toBe(0);
    expect(many?.status, many?.stderr).toBe(0);
    expect(JSON.parse(one?.stdout ?? "").responses).toHaveLength(948);
    expect(many?.stdout).toBe(one?.stdout);
  }, 120_000);
});
