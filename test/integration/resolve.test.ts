// The resolve CLI against a loopback fake Dify and a stub judge: valid records are imported, published, keyed and
// run with their case files uploaded under the official synthetic names; file checks and the judge decide each test,
// the apps are deleted afterwards, and a missing case file fails its test with a clear reason.
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
import { startFakeDify, type FakeDify } from "@/test/support/fake-dify";
import { fixedReply, officialReply, startOpenAIStub, type OpenAIStub } from "@/test/support/openai-stub";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");

describe.skipIf(!benchmarkDir)(`resolve against a fake Dify${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  let benchmark: BenchmarkFiles;
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
    dify = await startFakeDify({
      run: (app) => {
        const name = String((parseYaml(app.yaml) as { app: { name: string } }).app.name);
        const checks = benchmark.checkResolve[name] ?? {};
        const outputs: Record<string, unknown> = {};
        for (const group of outputGroups(benchmark.turns.get(name)?.outputVars ?? [])) {
          for (const variable of group) outputs[variable] = checks[variable] ? [{ extension: checks[variable], filename: `out${checks[variable]}` }] : `text for ${variable}`;
        }
        return outputs;
      },
    });
    judge = await startOpenAIStub(fixedReply(officialReply("The output meets the instruction.", true)));
    dir = await mkdtemp(path.join(os.tmpdir(), "c2w-resolve-"));
    await writeFile(path.join(dir, "pass.json"), JSON.stringify(records, null, 4));
  });
  afterAll(async () => {
    await dify?.close();
    await judge?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const args = (caseFiles: string, out: string) => [
    "tsx", "--conditions=react-server", "scripts/resolve.ts", "--benchmark", benchmarkDir as string, "--run", path.join(dir, "pass.json"),
    "--dify", dify.origin, "--dify-email", "admin@example.com", "--dify-password-env", "FAKE_DIFY_PASSWORD", "--case-files", caseFiles,
    "--endpoint", judge.baseURL, "--model", "judge-stub", "--out", out,
  ];
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
    expect([...dify.apps.values()].every((app) => app.deleted)).toBe(true);
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
});
