// The paper's agentic baseline for real: `npm run generate -- --mode agentic-opencode` runs the pinned opencode
// binary against a loopback OpenAI-compatible stub (streamed answers, as opencode asks), and the stub sees what the
// official chatllm_opencode.py would send: the SKILL.md text inlined, the round's query, earlier rounds as text, and
// a fresh session for every attempt. The wall clock counts an attempt as [TIMEOUT] without retrying it, and a
// non-zero exit abandons the rest of the task.
import { execFile } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseQueryFile } from "@/lib/benchmark/dataset";
import { TIMEOUT_ANSWER } from "@/lib/generation/protocol";
import { benchmarkDir, benchmarkMissingReason } from "@/test/support/benchmark-dir";
import { STUB_ANSWER } from "@/test/support/generation-stub";
import { opencodeMissingReason } from "@/test/support/opencode";
import { startOpenAIStub, type OpenAIStub, type StubRequest } from "@/test/support/openai-stub";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");
const env = { ...process.env, NODE_OPTIONS: "" };
const TASK = "Mermaid";

const REJECTED = STUB_ANSWER.replaceAll('"1"', '"9"').replace("{{#1.query#}}", "{{#9.query#}}");
const isAgentRequest = (request: StubRequest) => Array.isArray(request.body.tools);
const userText = (request: StubRequest) => {
  const content = request.messages.findLast((message) => message.role === "user")?.content as unknown;
  return typeof content === "string" ? content : JSON.stringify(content);
};
// opencode 1.3 quotes a message that holds spaces and escapes its double quotes before sending it.
const asSent = (text: string) => text.replace(/"/g, '\\"');

interface LoggedTurn {
  task: string;
  round: number;
  ok: boolean;
  error?: string;
  agent?: string;
  attempts?: { outcome: string; raw: string; agentRun?: { agent: string; exitCode: number | null; timedOut: boolean; durationMs: number; steps: string[]; chosenStep: number | null; sessionId: string | null } }[];
}

const skip = !benchmarkDir ? benchmarkMissingReason : opencodeMissingReason;

describe.skipIf(skip !== null)(`agentic-opencode generation${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let stub: OpenAIStub;
  let dir: string;
  let queries: string[];
  let skill: string;

  const generate = async (name: string, extra: string[] = [], extraEnv: Record<string, string> = {}) => {
    const out = path.join(dir, `${name}.json`);
    const args = ["scripts/run-cli.cjs", "scripts/generate.ts", "--benchmark", benchmarkDir as string, "--endpoint", stub.baseURL, "--model", "org/stub-model", "--out", out];
    args.push("--api-key-env", "STUB_KEY", "--mode", "agentic-opencode", "--tasks", TASK, "--work-dir", path.join(dir, `work-${name}`), ...extra);
    const result = await run("node", args, { cwd: root, env: { ...env, STUB_KEY: "sk-loopback-test", ...extraEnv }, maxBuffer: 16 * 1024 * 1024 }).then(
      (done) => ({ code: 0, stderr: done.stderr }),
      (error: { code?: number; stderr?: string }) => ({ code: error.code ?? -1, stderr: error.stderr ?? "" }),
    );
    const log = (await readFile(`${out}.turns.jsonl`, "utf8").catch(() => "")).split("\n").filter(Boolean).map((line) => JSON.parse(line) as LoggedTurn);
    const file = JSON.parse(await readFile(out, "utf8").catch(() => "[]")) as Record<string, unknown>[];
    return { ...result, log, file };
  };

  beforeAll(async () => {
    stub = await startOpenAIStub(() => ({ kind: "error", status: 500 }));
    dir = await mkdtemp(path.join(os.tmpdir(), "c2w-opencode-test-"));
    const parsed = parseQueryFile("query.json", JSON.parse(await readFile(path.join(benchmarkDir as string, "dataset", "query.json"), "utf8")));
    if (!parsed.ok) throw new Error("query.json does not parse");
    queries = [...(parsed.value.find((task) => task.task === TASK)?.queries ?? [])];
    skill = await readFile(path.join(benchmarkDir as string, ".agents", "skills", "chat2workflow", "SKILL.md"), "utf8");
  });
  afterAll(async () => {
    await stub?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("sends the inlined skill, the query and earlier rounds as text in a fresh session per attempt, and writes the official file", { timeout: 240_000 }, async () => {
    const first = stub.requests.length;
    let round1Attempts = 0;
    stub.setHandler((request) => {
      if (!isAgentRequest(request)) return { kind: "reply", content: "Workflow title" };
      if (userText(request).includes("Workflow Creation Instruction for Round 1:")) {
        round1Attempts += 1;
        return { kind: "reply", content: round1Attempts === 1 ? REJECTED : STUB_ANSWER };
      }
      return { kind: "reply", content: STUB_ANSWER };
    });
    const result = await generate("official");
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("opencode-ai 1.3.2");

    const agentRequests = stub.requests.slice(first).filter(isAgentRequest);
    expect(agentRequests.map((request) => request.model)).toEqual(["org/stub-model", "org/stub-model", "org/stub-model"]);
    for (const request of agentRequests) {
      expect(request.headers.authorization).toBe("Bearer sk-loopback-test");
      // A fresh session: opencode's system prompt and this attempt's one user message, nothing carried over.
      expect(request.messages.map((message) => message.role)).toEqual(["system", "user"]);
      expect(userText(request)).toContain(asSent(`Below is your complete skill instruction. Follow it precisely.\n\n--- SKILL.md START ---\n${skill}\n--- SKILL.md END ---\n\n`));
    }
    const [attempt1, attempt2, round2] = agentRequests.map(userText) as [string, string, string];
    expect(attempt1).toContain(asSent(`Workflow Creation Instruction for Round 1: ${queries[0]}`));
    expect(attempt2).toBe(attempt1);
    expect(round2).toContain(asSent(`Workflow Creation Instruction for Round 2: ${queries[1]}`));

    expect(result.file).toHaveLength(1);
    const item = result.file[0] as Record<string, string>;
    expect(Object.keys(item)).toEqual(["id", "category", "task", "answer1", "answer2"]);
    expect(item.answer1).toBe(STUB_ANSWER.replace("<workflow>```json\n", "<workflow>\n").replace("\n```</workflow>", "\n</workflow>"));
    // Round 2 carries round 1 as text: its query and the stored (repaired) answer, with the official wording.
    expect(round2).toContain(asSent(`<completed_rounds>\nBelow are all previous successful rounds (query + response) for context:\n\n[Round 1 Query]\n${queries[0]}\n\n[Round 1 Response]\n${item.answer1}\n</completed_rounds>`));

    const attempts = result.log.flatMap((turn) => turn.attempts ?? []);
    expect(attempts.map((attempt) => attempt.outcome)).toEqual(["issues", "accepted", "accepted"]);
    const sessions = attempts.map((attempt) => attempt.agentRun?.sessionId);
    expect(new Set(sessions).size).toBe(3);
    for (const attempt of attempts) {
      expect(attempt.agentRun).toMatchObject({ agent: "opencode-ai 1.3.2", exitCode: 0, timedOut: false, chosenStep: 0 });
      expect(attempt.agentRun?.steps).toEqual([attempt.raw]);
    }
  });

  it("counts an attempt past the wall clock as [TIMEOUT] at once, never retrying it", { timeout: 240_000 }, async () => {
    const first = stub.requests.length;
    stub.setHandler((request) => {
      if (!isAgentRequest(request)) return { kind: "reply", content: "Workflow title" };
      // Round 1 never answers in time; round 2 answers at once.
      return userText(request).includes("Round 1:") ? { kind: "reply", content: STUB_ANSWER, delayMs: 120_000 } : { kind: "reply", content: STUB_ANSWER };
    });
    const result = await generate("timeout", ["--timeout", "8"]);
    const round1 = result.log.find((turn) => turn.round === 1);
    expect(round1?.attempts?.map((attempt) => attempt.outcome)).toEqual(["timeout", "timeout", "timeout", "timeout", "timeout"]);
    for (const attempt of round1?.attempts ?? []) {
      expect(attempt.raw).toBe(TIMEOUT_ANSWER);
      expect(attempt.agentRun?.timedOut).toBe(true);
      expect(attempt.agentRun?.durationMs).toBeGreaterThanOrEqual(8_000);
    }
    // One opencode run per attempt and at most one request from each: nothing retried the timed-out call (on a busy
    // machine a run may be killed before it even asks).
    const round1Requests = stub.requests.slice(first).filter((request) => isAgentRequest(request) && userText(request).includes("Round 1:"));
    expect(round1Requests.length).toBeLessThanOrEqual(5);
    // The official fallback stores the TIMEOUT sentinel, and the next round is still generated after it.
    expect((result.file[0] as Record<string, string>).answer1).toBe(TIMEOUT_ANSWER);
    expect(result.log.find((turn) => turn.round === 2)?.ok).toBe(true);
  });

  it("abandons the rest of the task when opencode exits non-zero, keeping nothing of it", { timeout: 60_000 }, async () => {
    const failing = path.join(dir, "failing-opencode");
    await writeFile(failing, "#!/bin/sh\necho 'opencode: provider exploded' >&2\nexit 3\n");
    await chmod(failing, 0o755);
    const result = await generate("exit", [], { OPENCODE_BIN: failing });
    expect(result.code).toBe(1);
    expect(result.log).toHaveLength(1);
    expect(result.log[0]).toMatchObject({ round: 1, ok: false });
    expect(result.log[0]?.error).toContain("exit code 3");
    expect(result.log[0]?.error).toContain("provider exploded");
    expect(result.file.map((item) => Object.keys(item))).toEqual([["id", "category", "task"]]);
  });
});
