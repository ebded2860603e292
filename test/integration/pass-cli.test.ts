// `npm run -s pass`: a response file rebuilt from a shared recorded run becomes the official pass record file, whose
// tag fields, fail steps 1_1-1_3 and judged flags equal the recorded ones, in the official (task, round) order.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerFromFields, responseFile, type PassRecord } from "@/lib/benchmark/official-files";
import { turnKey } from "@/lib/benchmark/dataset";
import type { RunRecord } from "@/lib/benchmark/runs";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "../..");
const EARLY = new Set(["step_1_1", "step_1_2", "step_1_3"]);

describe.skipIf(!benchmarkDir)(`npm run pass${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "c2w-pass-"));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("writes pass records whose fields and early fail steps equal the recorded run's", async () => {
    const recorded = JSON.parse(readFileSync(path.join(benchmarkDir as string, "runs", "glm_4d7.json"), "utf8")) as RunRecord[];
    const queries = JSON.parse(readFileSync(path.join(benchmarkDir as string, "dataset", "query.json"), "utf8")) as Record<string, unknown>[];
    const answers = new Map(recorded.map((record) => [turnKey(record.task, record.round), answerFromFields({ nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow })]));
    const tasks = queries.map((task) => ({ id: Number(task.id), category: String(task.category), task: String(task.task), rounds: Object.keys(task).filter((key) => /^query\d+$/.test(key)).length }));
    const responses = path.join(dir, "response_glm_4d7.json");
    await writeFile(responses, JSON.stringify(responseFile(tasks, answers)));
    const out = path.join(dir, "pass_eval_glm_4d7.json");
    const { stderr } = await run(process.execPath, ["scripts/run-cli.cjs", "scripts/pass.ts", "--benchmark", benchmarkDir as string, "--run", responses, "--out", out], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" } });
    expect(stderr).toContain("79 records");

    const records = JSON.parse(await readFile(out, "utf8")) as PassRecord[];
    expect(records).toHaveLength(79);
    const sorted = [...recorded].sort((a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : a.round - b.round));
    expect(records.map((record) => `${record.task}_${record.round}`)).toEqual(sorted.map((record) => `${record.task}_${record.round}`));
    const mismatches: string[] = [];
    records.forEach((record, index) => {
      const expected = sorted[index] as RunRecord;
      const early = (step: string | undefined) => (step && EARLY.has(step) ? step : null);
      if (record.node_selection !== expected.node_selection || record.design_principle !== expected.design_principle || record.workflow !== expected.workflow) mismatches.push(`${record.task}_${record.round}: fields`);
      if (early(record.fail_step) !== early(expected.fail_step)) mismatches.push(`${record.task}_${record.round}: ${record.fail_step} vs ${expected.fail_step}`);
      if (record.has_been_judged !== expected.has_been_judged) mismatches.push(`${record.task}_${record.round}: judged ${record.has_been_judged}`);
      if (record.valid && record.fail_step !== undefined) mismatches.push(`${record.task}_${record.round}: fail_step on a valid record`);
    });
    expect(mismatches).toEqual([]);
  }, 120_000);

  it("rejects a response file naming a task the benchmark does not have", async () => {
    const responses = path.join(dir, "response_bad.json");
    await writeFile(responses, JSON.stringify([{ id: 1, category: "Research", task: "NoSuchTask", answer1: "x" }]));
    const failure = await run(process.execPath, ["scripts/run-cli.cjs", "scripts/pass.ts", "--benchmark", benchmarkDir as string, "--run", responses, "--out", path.join(dir, "out.json")], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: "" } }).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain("NoSuchTask");
  }, 120_000);
});
