// The resolve CLI against a loopback fake Dify and a stub judge: valid records are imported, published, keyed and
// run with their case files uploaded under the official synthetic names; file checks and the judge decide each test,
// the apps are deleted afterwards, and a missing case file fails its test with a clear reason. A Dify 1.12 gets the
// base64 password, a workspace lacking a plugin is refused before anything is imported, and a case the judge does not
// answer is written without its testN (not judged), with a non-zero exit.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { parse as parseYaml } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outputGroups } from "@/lib/benchmark/turn";
import type { RunRecord } from "@/lib/benchmark/runs";
import { readBenchmarkDir, type BenchmarkFiles } from "@/lib/server/benchmark-files";
import { testFiles } from "@/lib/resolve/official";
import { benchmarkDir, benchmarkMissingReason } from "@/test/support/benchmark-dir";
import { fullFakeInventory, startFakeDify, type FakeDify, type FakeDifyOptions } from "@/test/support/fake-dify";
import { fixedReply, officialReply, serverError, startOpenAIStub, type OpenAIStub } from "@/test/support/openai-stub";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");

describe.skipIf(!benchmarkDir)(`resolve against a fake Dify${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  let benchmark: BenchmarkFiles;
  /** A fake that answers each turn's outputs: files where the turn checks them, text for the others. */
  const fakeOptions = (extra: FakeDifyOptions = {}): FakeDifyOptions => ({
    run: (app) => {
      const name = String((parseYaml(app.yaml) as { app: { name: string } }).app.name);
      const checks = benchmark.checkResolve[name] ?? {};
      const outputs: Record<string, unknown> = {};
      for (const group of outputGroups(benchmark.turns.get(name)?.outputVars ?? [])) {
        for (const variable of group) outputs[variable] = checks[variable] ? [{ extension: checks[variable], filename: `out${checks[variable]}` }] : `text for ${variable}`;
      }
      return outputs;
    },
    ...extra,
  });
  let dify: FakeDify;
  let judge: OpenAIStub;
  let dir: string;
  let records: RunRecord[];

  beforeAll(async () => {
    const files = await readBenchmarkDir(benchmarkDir as string);
    if (!files.ok) throw new Error(files.issues.map((entry) => entry.message).join("\n"));
    benchmark = files.value;
    // Two valid records of a shared run: one whose turn checks output files and uploads input files, one without.
    const all = benchmark.runs.find((candidate) => candidate.model === "claude_sonnet4d5")?.records ?? [];
    const withFiles = all.find((record) => record.valid && benchmark.checkResolve[`${record.task}_${record.round}`] && benchmark.turns.get(`${record.task}_${record.round}`)?.tests.some((test) => testFiles(test.inputs).length > 0));
    const plain = all.find((record) => record.valid && !benchmark.checkResolve[`${record.task}_${record.round}`]);
    if (!withFiles || !plain) throw new Error("the shared run lacks the records this test needs");
    records = [withFiles, plain];
    dify = await startFakeDify(fakeOptions());
    judge = await startOpenAIStub(fixedReply(officialReply("The output meets the instruction.", true)));
    dir = await mkdtemp(path.join(os.tmpdir(), "c2w-resolve-"));
    await writeFile(path.join(dir, "pass.json"), JSON.stringify(records, null, 4));
  });
  afterAll(async () => {
    await dify?.close();
    await judge?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const args = (caseFiles: string, out: string, origin = dify.origin, endpoint = judge.baseURL) => [
    "tsx", "--conditions=react-server", "scripts/resolve.ts", "--benchmark", benchmarkDir as string, "--run", path.join(dir, "pass.json"),
    "--dify", origin, "--dify-email", "admin@example.com", "--dify-password-env", "FAKE_DIFY_PASSWORD", "--case-files", caseFiles,
    "--endpoint", endpoint, "--model", "judge-stub", "--out", out,
  ];
  const failing = (command: Promise<unknown>) => command.then(() => { throw new Error("expected the CLI to fail"); }, (error: { code?: number; stderr?: string }) => error);
  const env = () => ({ ...process.env, NODE_OPTIONS: "", FAKE_DIFY_PASSWORD: "correct horse" });

  it("writes the official resolve records: file checks, judge verdicts with the outputs shown, apps deleted", async () => {
    const out = path.join(dir, "resolve.json");
    await run("npx", args(path.join(benchmarkDir as string, "case_files"), out), { cwd: root, env: env() });
    const written = JSON.parse(await readFile(out, "utf8")) as RunRecord[];
    expect(written.map((record) => [record.task, record.round])).toEqual(records.map((record) => [record.task, record.round]));
    for (const record of written) {
      expect([record.test1, record.test2, record.test3]).toEqual([true, true, true]);
      expect(record.api_key).toMatch(/^app-…/);
    }
    // Every upload used the synthetic name from the pseudo-MIME type.
    const uploads = [...dify.files.values()];
    expect(uploads.length).toBeGreaterThan(0);
    for (const file of uploads) expect(file.name).toBe(file.mimeType.replace("/", "."));
    // The judge saw the non-file outputs of each test and the task's queries.
    const [withFiles] = written;
    const checks = benchmark.checkResolve[`${withFiles?.task}_${withFiles?.round}`] ?? {};
    expect(Object.keys(checks).length).toBeGreaterThan(0);
    for (const variable of Object.keys(checks)) expect(withFiles?.llm_output_test1 ?? "").not.toContain(`${variable}:`);
    const queries = benchmark.queries.find((task) => task.task === written[1]?.task)?.queries ?? [];
    expect(judge.requests.some((request) => request.messages[1]?.content.includes(`query1: ${queries[0]}`))).toBe(true);
    expect(written[1]?.llm_evaluate_reason_test1).toBe("The output meets the instruction.");
    expect([...dify.apps.values()].length).toBeGreaterThan(0);
    expect([...dify.apps.values()].filter((app) => !app.deleted)).toEqual([]);
    expect(dify.apps.size).toBe(2);
  });

  it("fails only the tests whose case file is missing", async () => {
    const out = path.join(dir, "resolve-missing.json");
    const empty = await mkdtemp(path.join(os.tmpdir(), "c2w-cases-"));
    const { stderr } = await run("npx", args(empty, out), { cwd: root, env: env() });
    await rm(empty, { recursive: true, force: true });
    const written = JSON.parse(await readFile(out, "utf8")) as RunRecord[];
    const turn = benchmark.turns.get(`${records[0]?.task}_${records[0]?.round}`);
    const expected = (turn?.tests ?? []).map((test) => testFiles(test.inputs).length === 0);
    expect([written[0]?.test1, written[0]?.test2, written[0]?.test3]).toEqual(expected);
    expect(stderr).toMatch(/case file ".+" is missing from/);
    expect([written[1]?.test1, written[1]?.test2, written[1]?.test3]).toEqual([true, true, true]);
  });

  it("signs in to a Dify 1.12 with the base64 password, as that version expects", async () => {
    const newer = await startFakeDify(fakeOptions({ version: "1.12.0" }));
    try {
      const out = path.join(dir, "resolve-newer.json");
      await run("npx", args(path.join(benchmarkDir as string, "case_files"), out, newer.origin), { cwd: root, env: env() });
      expect(newer.passwordsReceived).toEqual([Buffer.from("correct horse").toString("base64")]);
      const written = JSON.parse(await readFile(out, "utf8")) as RunRecord[];
      expect(written.map((record) => [record.test1, record.test2, record.test3])).toEqual([[true, true, true], [true, true, true]]);
    } finally {
      await newer.close();
    }
  });

  it("refuses, before importing anything, a workspace that lacks a plugin the records' workflows need", async () => {
    const full = fullFakeInventory();
    const lacking = await startFakeDify(fakeOptions({ inventory: { ...full, plugins: full.plugins.filter((plugin) => plugin !== "langgenius/tongyi") } }));
    try {
      const out = path.join(dir, "resolve-lacking.json");
      const error = await failing(run("npx", args(path.join(benchmarkDir as string, "case_files"), out, lacking.origin), { cwd: root, env: env() }));
      expect(error.code).toBe(1);
      expect(error.stderr).toMatch(/error: The Dify workspace lacks what the workflows need: plugin langgenius\/tongyi — not installed/);
      expect(lacking.log.filter((line) => line.includes("/apps/imports"))).toEqual([]);
    } finally {
      await lacking.close();
    }
  });

  it("leaves out the testN of a case the judge gave no verdict on, says so, and exits 1", async () => {
    const silent = await startOpenAIStub(() => serverError(400));
    try {
      const out = path.join(dir, "resolve-not-judged.json");
      const error = await failing(run("npx", args(path.join(benchmarkDir as string, "case_files"), out, dify.origin, silent.baseURL), { cwd: root, env: env() }));
      expect(error.code).toBe(1);
      expect(error.stderr).toMatch(/not judged \(the judge gave no verdict\), so no rate over all tests/);
      const written = JSON.parse(await readFile(out, "utf8")) as RunRecord[];
      expect(written).toHaveLength(2);
      // The plain turn's outputs are all text: none of its tests has a verdict, and none is counted as failed.
      const plain = written[1];
      expect([plain?.test1, plain?.test2, plain?.test3]).toEqual([undefined, undefined, undefined]);
      expect(plain?.api_key).toMatch(/^app-…/);
    } finally {
      await silent.close();
    }
  });
});

