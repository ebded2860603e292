// Generation against loopback servers: zero-shot replay of shared runs must follow the official protocol and give
// back every recorded fail step of steps 1_1-1_3 once scored; the CLI resumes without asking for a turn twice; the
// agentic modes make the official attempts and repairs over HTTP, and feedback mode reports the previous problems.
import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { turnKey } from "@/lib/benchmark/dataset";
import { parseGenerationFile, type RunRecord } from "@/lib/benchmark/runs";
import { readBenchmarkDir, type BenchmarkFiles } from "@/lib/server/benchmark-files";
import { generateResponses, type GenerationTask, type ResponseItem } from "@/lib/server/generation/runner";
import { createChatClient } from "@/lib/server/llm";
import { scoreResponse } from "@/lib/workflow/score";
import { benchmarkDir, benchmarkMissingReason } from "@/test/support/benchmark-dir";
import { zeroShotReplay } from "@/test/support/generation-replay";
import { startOpenAIStub, type OpenAIStub, type StubAnswer } from "@/test/support/openai-stub";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");
const env = { ...process.env, NODE_OPTIONS: "" };

const recordedEarlyStep = (record: RunRecord) => (record.fail_step === "step_1_1" || record.fail_step === "step_1_2" || record.fail_step === "step_1_3" ? record.fail_step : null);

function expectRecordedSteps(benchmark: BenchmarkFiles, items: readonly { task: string; answers: { round: number; text: string }[] }[], records: readonly RunRecord[]): void {
  const answers = new Map(items.flatMap((item) => item.answers.map((answer) => [turnKey(item.task, answer.round), answer.text] as const)));
  expect(answers.size).toBe(79);
  expect(records.length).toBe(79);
  const mismatches: string[] = [];
  for (const record of records) {
    const key = turnKey(record.task, record.round);
    const turn = benchmark.turns.get(key);
    const answer = answers.get(key);
    if (!turn || answer === undefined) {
      mismatches.push(`${key}: no answer or no turn`);
      continue;
    }
    const step = scoreResponse({ raw: answer }, turn).officialFailStep;
    if (step !== recordedEarlyStep(record)) mismatches.push(`${key}: scored ${step}, recorded ${record.fail_step ?? "valid"}`);
  }
  expect(mismatches).toEqual([]);
}

describe.skipIf(!benchmarkDir)(`zero-shot generation replaying shared runs${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  let benchmark: BenchmarkFiles;
  let stub: OpenAIStub;
  let dir: string;
  const builderPrompt = () => benchmark.prompts.find((prompt) => prompt.name === "builder_prompt")?.text ?? "";

  beforeAll(async () => {
    const files = await readBenchmarkDir(benchmarkDir as string);
    if (!files.ok) throw new Error(files.issues.map((entry) => entry.message).join("\n"));
    benchmark = files.value;
    stub = await startOpenAIStub(() => ({ kind: "error", status: 500 }), { record: false });
    dir = await mkdtemp(path.join(os.tmpdir(), "c2w-generate-"));
  });
  afterAll(async () => {
    await stub?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the CLI writes the official response file, its scoring reproduces the recorded fail steps, and it resumes", async () => {
    const recorded = benchmark.runs.find((candidate) => candidate.model === "claude_sonnet4d5");
    expect(recorded).toBeDefined();
    const replay = zeroShotReplay(builderPrompt(), benchmark.queries, recorded?.records ?? []);
    stub.setHandler(replay.handler);
    const out = path.join(dir, "response_replay.json");
    const args = ["tsx", "--conditions=react-server", "scripts/generate.ts", "--benchmark", benchmarkDir as string, "--endpoint", stub.baseURL, "--model", "replay-stub", "--out", out, "--concurrency", "8"];
    const callsBefore = stub.calls;
    await run("npx", args, { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
    expect(replay.violations).toEqual([]);
    expect(stub.calls - callsBefore).toBe(79);

    const data = JSON.parse(await readFile(out, "utf8")) as ResponseItem[];
    expect(data.map((item) => item.task)).toEqual(benchmark.queries.map((task) => task.task));
    for (const [index, item] of data.entries()) {
      const rounds = benchmark.queries[index]?.queries.length ?? 0;
      expect(Object.keys(item)).toEqual(["id", "category", "task", ...Array.from({ length: rounds }, (_, round) => `answer${round + 1}`)]);
    }
    const parsed = parseGenerationFile("response_replay.json", data);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expectRecordedSteps(benchmark, parsed.value, recorded?.records ?? []);

    // Resume: drop two answers (one of them an empty string, which the official code regenerates too).
    const partial = data.map((item) => ({ ...item }));
    delete (partial[0] as Record<string, unknown>).answer3;
    (partial[5] as Record<string, unknown>).answer2 = "";
    await writeFile(out, JSON.stringify(partial, null, 4));
    const askedBefore = replay.asked.length;
    await run("npx", args, { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
    expect(replay.violations).toEqual([]);
    expect(replay.asked.slice(askedBefore).sort()).toEqual([turnKey(data[0]?.task ?? "", 3), turnKey(data[5]?.task ?? "", 2)].sort());
    expect(JSON.parse(await readFile(out, "utf8"))).toEqual(data);
  });

  it("after kill -9 mid-run, a restart completes the file without generating a stored turn twice", async () => {
    const recorded = benchmark.runs.find((candidate) => candidate.model === "gpt_5d2");
    const replay = zeroShotReplay(builderPrompt(), benchmark.queries, recorded?.records ?? []);
    stub.setHandler(async (request) => ({ ...(await replay.handler(request)), delayMs: 150 }) as StubAnswer);
    const out = path.join(dir, "response_killed.json");
    const args = ["tsx", "--conditions=react-server", "scripts/generate.ts", "--benchmark", benchmarkDir as string, "--endpoint", stub.baseURL, "--model", "replay-stub", "--out", out, "--concurrency", "4"];
    const child = spawn("npx", args, { cwd: root, env, stdio: "ignore", detached: true });
    const storedAt = async () => (existsSync(out) ? (JSON.parse(await readFile(out, "utf8")) as ResponseItem[]) : []);
    const answersIn = (items: readonly ResponseItem[]) => items.flatMap((item) => Object.keys(item).filter((key) => key.startsWith("answer")).map((key) => `${item.task}_${key.slice(6)}`));
    const deadline = Date.now() + 60_000;
    while (answersIn(await storedAt()).length < 12 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    process.kill(-(child.pid as number), "SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const stored = new Set(answersIn(await storedAt()));
    expect(stored.size).toBeGreaterThanOrEqual(12);
    expect(stored.size).toBeLessThan(79);
    const askedBefore = replay.asked.length;
    await run("npx", args, { cwd: root, env, maxBuffer: 16 * 1024 * 1024 });
    const askedAfter = replay.asked.slice(askedBefore);
    expect(askedAfter.filter((key) => stored.has(key))).toEqual([]);
    expect(new Set(askedAfter).size).toBe(askedAfter.length);
    expect(answersIn(await storedAt())).toHaveLength(79);
    expect(replay.violations).toEqual([]);
  });

  it("reproduces the recorded fail steps of every shared run (in process)", async () => {
    expect(benchmark.runs.length).toBeGreaterThanOrEqual(12);
    for (const recorded of benchmark.runs) {
      const replay = zeroShotReplay(builderPrompt(), benchmark.queries, recorded.records);
      stub.setHandler(replay.handler);
      const client = createChatClient({ baseURL: stub.baseURL, model: "replay-stub", concurrency: 8, maxRetries: 0 });
      const result = await generateResponses({ client, tasks: benchmark.queries, mode: "zero-shot", builderPrompt: builderPrompt(), concurrency: 8 });
      expect(replay.violations).toEqual([]);
      expect(result.failed).toBe(0);
      const parsed = parseGenerationFile(recorded.model, result.items);
      expect(parsed.ok).toBe(true);
      if (parsed.ok) expectRecordedSteps(benchmark, parsed.value, recorded.records);
    }
  });
});

// -- agentic modes over HTTP ----------------------------------------------------------------------------------------

const nodes = {
  start: '{"id": "1", "type": "start", "param": {"variables": [["text", "string"]]}}',
  llm: '{"id": "2", "type": "llm", "param": {"system": "", "user": "{{#1.text#}}"}}',
  end: '{"id": "3", "type": "end", "param": {"outputs": [["result", ["text", "2"]]]}}',
};
const edges = '[["1", 0, "2"], ["2", 0, "3"]]';
const answer = (selection: string, workflow: string) => `<node_selection>${selection}</node_selection>\n<design_principle>Read the text, summarise it.</design_principle>\n<workflow>${workflow}</workflow>`;
const valid = answer("start, llm, end", `{"nodes_info": [${nodes.start}, ${nodes.llm}, ${nodes.end}], "edges": ${edges}}`);
/** Fenced, broken (trailing comma), a forward reference (end before llm) and a natural-language selection. */
const needsAllRepairs = answer("Start node, LLM, End node", "```json\n" + `{"nodes_info": [${nodes.start}, ${nodes.end}, ${nodes.llm},], "edges": ${edges}}` + "\n```");
const task: GenerationTask = { id: 1, category: "Document", task: "Summary", queries: ["Summarise the input text.", "Also output the word count."] };

describe("agentic generation over HTTP", () => {
  let stub: OpenAIStub;
  beforeAll(async () => {
    stub = await startOpenAIStub(() => ({ kind: "error", status: 500 }));
  });
  afterAll(async () => {
    await stub?.close();
  });

  it("retries a timeout and a tag-less reply, repairs fences, JSON, order and selection, and carries the repaired answer into round 2", async () => {
    const script: StubAnswer[] = [
      { kind: "reply", content: valid, delayMs: 1500 }, // round 1, attempt 1: past the client's timeout
      { kind: "reply", content: "I will now design the workflow." }, // attempt 2: no tags
      { kind: "reply", content: `<think>plan</think>${needsAllRepairs}` }, // attempt 3: accepted after four repairs
      { kind: "reply", content: valid }, // round 2, attempt 1
    ];
    const first = stub.requests.length;
    stub.setHandler((request) => script[request.index - first] ?? { kind: "error", status: 500 });
    const client = createChatClient({ baseURL: stub.baseURL, model: "scripted-stub", timeoutMs: 300, maxRetries: 0 });
    const result = await generateResponses({ client, tasks: [task], mode: "agentic", builderPrompt: "", skill: "SKILL TEXT" });
    expect(result.failed).toBe(0);
    const round1 = result.turns.find((turn) => turn.round === 1);
    expect(round1?.attempts?.map((attempt) => attempt.outcome)).toEqual(["timeout", "no-tags", "accepted"]);
    expect(round1?.attempts?.[2]?.repairs.map((repair) => repair.code)).toEqual(["strip-code-fence", "json-repair", "topological-order", "node-selection"]);
    const stored = result.items[0]?.answer1 ?? "";
    expect(stored).toContain("<node_selection>\nend\nllm\nstart\n</node_selection>");
    expect(stored).toContain(`<workflow>\n{"nodes_info": [${nodes.start}, ${nodes.llm}, ${nodes.end}], "edges": ${edges}}\n</workflow>`);

    const requests = stub.requests.slice(first);
    expect(requests).toHaveLength(4);
    for (const request of requests) {
      expect(request.messages).toHaveLength(1);
      expect(request.messages[0]?.role).toBe("user");
      expect(request.body.temperature).toBeUndefined();
    }
    expect(new Set(requests.slice(0, 3).map((request) => request.messages[0]?.content)).size).toBe(1);
    const round2 = requests[3]?.messages[0]?.content ?? "";
    expect(round2).toContain(`[Round 1 Query]\nSummarise the input text.\n\n[Round 1 Response]\n${stored}\n</completed_rounds>`);
    expect(round2).toContain("Input variables: text (string)\nOutput variables: result (from node 2.text)");
    expect(round2.endsWith("</multi-round_interaction_rules>\n\nWorkflow Creation Instruction for Round 2: Also output the word count.")).toBe(true);
  });

  it("fails only the turn on an API error and leaves later rounds for a resumed run", async () => {
    const first = stub.requests.length;
    stub.setHandler(() => ({ kind: "error", status: 401, message: "bad key" }));
    const client = createChatClient({ baseURL: stub.baseURL, model: "scripted-stub", maxRetries: 0 });
    const result = await generateResponses({ client, tasks: [task, { ...task, id: 2, task: "Other" }], mode: "agentic", builderPrompt: "", skill: "S" });
    expect(result.failed).toBe(2);
    expect(result.turns.length).toBeGreaterThan(0);
    expect(result.turns.filter((turn) => !(!turn.ok && turn.round === 1 && (turn.error ?? "").includes("401")))).toEqual([]);
    expect(stub.requests.length - first).toBe(2);
    expect(result.items.map((item) => Object.keys(item))).toEqual([["id", "category", "task"], ["id", "category", "task"]]);
  });

  it("feedback mode tells attempt 2 what was wrong with attempt 1", async () => {
    const wrongStart = valid.replaceAll('"1"', '"9"').replace("{{#1.text#}}", "{{#9.text#}}");
    const script: StubAnswer[] = [
      { kind: "reply", content: wrongStart },
      { kind: "reply", content: valid },
    ];
    const first = stub.requests.length;
    stub.setHandler((request) => script[request.index - first] ?? { kind: "error", status: 500 });
    const client = createChatClient({ baseURL: stub.baseURL, model: "scripted-stub", maxRetries: 0 });
    const result = await generateResponses({ client, tasks: [{ ...task, queries: [task.queries[0] as string] }], mode: "feedback", builderPrompt: "", skill: "S" });
    const attempts = result.turns[0]?.attempts ?? [];
    expect(attempts.map((attempt) => attempt.outcome)).toEqual(["issues", "accepted"]);
    const [firstMessage, secondMessage] = stub.requests.slice(first).map((request) => request.messages[0]?.content ?? "");
    expect(firstMessage).not.toContain("<previous_attempt_problems>");
    expect(secondMessage).toContain("<previous_attempt_problems>");
    expect(secondMessage).toContain("START_ID_WRONG: Start node has id '9'");
    for (const item of attempts[0]?.diagnostics ?? []) expect(secondMessage).toContain(item.message);
  });
});
