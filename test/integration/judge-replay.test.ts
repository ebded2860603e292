// Re-judging the shared recorded runs against the loopback stub replaying the recorded judge replies must give back
// every recorded step 1_4 and resolve verdict; the judge CLI keeps its JSON contract and its call cache.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { judgeItemsFor, officialSystemPrompt, reachedPassJudge, type JudgeStage } from "@/lib/judge";
import { readBenchmarkDir, type BenchmarkFiles } from "@/lib/server/benchmark-files";
import { createChatClient, judgeItems } from "@/lib/server/llm";
import { benchmarkDir, benchmarkMissingReason } from "@/test/support/benchmark-dir";
import { replay, replayTable, startOpenAIStub, type OpenAIStub } from "@/test/support/openai-stub";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");

describe.skipIf(!benchmarkDir)(`judge replay of the recorded runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  let benchmark: BenchmarkFiles;
  let stub: OpenAIStub;
  const queries = () => new Map(benchmark.queries.map((task) => [task.task, task.queries]));
  const context = (stage: JudgeStage) => {
    const prompt = benchmark.prompts.find((candidate) => candidate.name === `evaluation_${stage}_system`);
    if (!prompt) throw new Error(`the benchmark has no ${stage} judge prompt`);
    return { turns: benchmark.turns, queries: queries(), systemPrompt: officialSystemPrompt(prompt.text) };
  };

  beforeAll(async () => {
    const files = await readBenchmarkDir(benchmarkDir as string);
    if (!files.ok) throw new Error(files.issues.map((entry) => entry.message).join("\n"));
    benchmark = files.value;
    stub = await startOpenAIStub(() => ({ kind: "error", status: 500 }), { record: false });
  });
  afterAll(async () => {
    await stub?.close();
  });

  for (const stage of ["pass", "resolve"] as const) {
    it(`reproduces every recorded ${stage}-stage verdict of every shared run`, async () => {
      expect(benchmark.runs.length).toBeGreaterThanOrEqual(12);
      let judgedTotal = 0;
      for (const recorded of benchmark.runs) {
        const runs = [{ model: recorded.model, records: recorded.records }];
        stub.setHandler(replay(replayTable(runs, benchmark.turns, queries())));
        const built = judgeItemsFor(stage, runs, context(stage));
        expect(built.issues).toEqual([]);
        const expected =
          stage === "pass"
            ? recorded.records.filter(reachedPassJudge).length
            : recorded.records.reduce((sum, record) => sum + [1, 2, 3].filter((n) => record[`llm_output_test${n as 1 | 2 | 3}`] !== undefined).length, 0);
        expect(built.items).toHaveLength(expected);
        expect(expected).toBeGreaterThan(0);
        const client = createChatClient({ baseURL: stub.baseURL, model: "replay-stub", concurrency: 16, maxRetries: 0 });
        const result = await judgeItems(built.items, { client });
        const mismatches = result.results
          .filter((judged) => judged.verdict !== judged.item.recorded || judged.error !== null)
          .map((judged) => `${judged.item.key}: judged ${judged.verdict} (${judged.error?.message ?? "ok"}), recorded ${judged.item.recorded}`);
        expect(mismatches).toEqual([]);
        expect(result.results).toHaveLength(expected);
        expect(result.results.filter((judged) => !(judged.item.recorded !== null && judged.samples[0]?.wellFormed === true))).toEqual([]);
        expect(result.calls).toBe(expected);
        judgedTotal += expected;
      }
      // 637 pass-stage and 967 resolve-stage questions across the 12 shared runs.
      expect(judgedTotal).toBe(stage === "pass" ? 637 : 967);
    });
  }

  it("the CLI prints the JSON contract, agrees with the recorded verdicts, and a second run with the cache makes no calls", async () => {
    const cacheDir = await mkdtemp(path.join(os.tmpdir(), "judge-cli-cache-"));
    try {
      const runFile = path.join(benchmarkDir as string, "runs", "gpt_5d1.json");
      const recorded = benchmark.runs.find((entry) => entry.model === "gpt_5d1");
      if (!recorded) throw new Error("the shared benchmark has no gpt_5d1 run");
      stub.setHandler(replay(replayTable([recorded], benchmark.turns, queries())));
      const args = [
        "tsx", "--conditions=react-server", "scripts/judge.ts",
        "--benchmark", benchmarkDir as string, "--run", runFile, "--stage", "resolve",
        "--endpoint", stub.baseURL, "--model", "replay-stub", "--concurrency", "8", "--cache-dir", cacheDir, "--json",
      ];
      const env = { ...process.env, NODE_OPTIONS: "" };
      const callsBefore = stub.calls;
      const first = await run("npx", args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 });
      const parsed = JSON.parse(first.stdout) as { verdicts: { model: string; task: string; round: number; test: number | null; verdict: boolean | null; cached: boolean }[]; calls: number };
      expect(Object.keys(parsed).sort()).toEqual(["calls", "verdicts"]);
      const expected = recorded.records.flatMap((record) =>
        ([1, 2, 3] as const)
          .filter((n) => record[`llm_output_test${n}`] !== undefined)
          .map((n) => ({ model: "gpt_5d1", task: record.task, round: record.round, test: n, verdict: record[`test${n}`] === true, cached: false })),
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(parsed.verdicts).toEqual(expected);
      expect(parsed.calls).toBe(expected.length);
      expect(stub.calls - callsBefore).toBe(expected.length);

      const second = await run("npx", args, { cwd: root, env, maxBuffer: 64 * 1024 * 1024 });
      const again = JSON.parse(second.stdout) as typeof parsed;
      expect(again.calls).toBe(0);
      expect(stub.calls - callsBefore).toBe(expected.length);
      expect(again.verdicts).toEqual(expected.map((row) => ({ ...row, cached: true })));

      const summary = await run("npx", args.filter((arg) => arg !== "--json"), { cwd: root, env });
      expect(summary.stdout).toMatch(/gpt_5d1\s+80\s+0\s+[\d.]+%\s+[\d.]+%\s+100\.0%\s+1\.000/);
    } finally {
      await rm(cacheDir, { recursive: true, force: true });
    }
  });

  it("the CLI sends the key from --api-key-env as a bearer token and never prints it", async () => {
    const recorded = benchmark.runs.find((entry) => entry.model === "qwen3_32B");
    if (!recorded) throw new Error("the shared benchmark has no qwen3_32B run");
    const seen = new Set<string | undefined>();
    const table = replayTable([recorded], benchmark.turns, queries());
    const replayed = replay(table);
    stub.setHandler((request) => {
      seen.add(request.headers.authorization);
      return replayed(request);
    });
    const secret = "sk-judge-test-0123456789";
    const args = ["tsx", "--conditions=react-server", "scripts/judge.ts", "--benchmark", benchmarkDir as string, "--run", path.join(benchmarkDir as string, "runs", "qwen3_32B.json"), "--stage", "pass", "--endpoint", stub.baseURL, "--model", "replay-stub", "--api-key-env", "JUDGE_TEST_KEY", "--concurrency", "8"];
    const result = await run("npx", args, { cwd: root, env: { ...process.env, NODE_OPTIONS: "", JUDGE_TEST_KEY: secret } });
    expect([...seen]).toEqual([`Bearer ${secret}`]);
    expect(result.stdout + result.stderr).not.toContain(secret);
    expect(result.stdout).toMatch(/qwen3_32B\s+35\s+0\s/);
  });

  it("the CLI reports 5xx that outlast the retries as null verdicts and exits 1 when nothing was judged", async () => {
    stub.setHandler(() => ({ kind: "error", status: 503, headers: { "retry-after": "0" }, message: "overloaded" }));
    const callsBefore = stub.calls;
    const args = ["tsx", "--conditions=react-server", "scripts/judge.ts", "--benchmark", benchmarkDir as string, "--run", path.join(benchmarkDir as string, "runs", "qwen3_32B.json"), "--stage", "pass", "--endpoint", stub.baseURL, "--model", "stub", "--max-retries", "1", "--json"];
    const failure = await run("npx", args, { cwd: root, env: { ...process.env, NODE_OPTIONS: "" } }).then(
      () => null,
      (error: { code?: number; stdout?: string; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(1);
    const parsed = JSON.parse(failure?.stdout ?? "") as { verdicts: { verdict: boolean | null }[]; calls: number };
    expect(parsed.verdicts).toHaveLength(35);
    expect(parsed.verdicts.filter((row) => !(row.verdict === null))).toEqual([]);
    expect(parsed.calls).toBe(70);
    expect(stub.calls - callsBefore).toBe(70);
    expect(failure?.stderr).toMatch(/server-error: 503 overloaded \(after 2 attempts\)/);
  });

  it("the CLI rejects bad arguments with exit status 2 and names the option", async () => {
    const failure = await run("npx", ["tsx", "--conditions=react-server", "scripts/judge.ts", "--benchmark", benchmarkDir as string, "--run", "x", "--stage", "final", "--endpoint", "http://127.0.0.1:1/v1", "--model", "m", "--json"], { cwd: root }).then(
      () => null,
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failure?.code).toBe(2);
    expect(failure?.stderr).toMatch(/--stage must be pass or resolve/);
  });
});
