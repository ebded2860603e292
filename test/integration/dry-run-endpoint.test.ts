// The dry-run command line with --endpoint: LLM nodes are answered by an OpenAI-compatible server (here a stub on
// 127.0.0.1, not a model), so a code node parses that text instead of standing in for it, and the output is labelled a
// local execution. Runs the CLI the way users do, through `npm run -s`.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { startOpenAIStub, type OpenAIStub } from "../support/openai-stub";

const ROOT = path.resolve(__dirname, "../..");
const run = promisify(execFile);
const scratch = mkdtempSync(path.join(tmpdir(), "c2w-dry-run-endpoint-"));

// A Creation_1 response built here: the LLM is asked for a JSON list of chapter titles, which a code node parses.
const workflow = {
  nodes_info: [
    { id: "1", type: "start", param: { variables: [["instruction", "string"]] } },
    { id: "2", type: "llm", param: { system: "Answer with a JSON list of chapter titles only.", user: "{{#1.instruction#}}" } },
    { id: "3", type: "code", param: { variables: [["outline", ["text", "2"]]], outputs: [["chapters", "array[string]"]], code: "import json\ndef main(outline: str):\n\treturn {'chapters': json.loads(outline)}" } },
    { id: "4", type: "end", param: { outputs: [["chapters", ["chapters", "3"]]] } },
  ],
  edges: [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "4"]],
};
const record = { task: "Creation", round: 1, node_selection: "Start, LLM, Code, End", design_principle: "Outline as JSON, parsed by code.", workflow: JSON.stringify(workflow), valid: true, has_been_judged: false };
const runFile = path.join(scratch, "stub_model.json");
writeFileSync(runFile, JSON.stringify([record]));

let stub: OpenAIStub;
let reply = "";
beforeAll(async () => {
  stub = await startOpenAIStub(() => ({ kind: "reply", content: reply }));
});
afterAll(async () => {
  await stub.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function dryRun(...extra: string[]) {
  const { stdout } = await run("npm", ["run", "-s", "dry-run", "--", "--benchmark", benchmarkDir as string, "--run", runFile, ...extra, "--json"], { cwd: ROOT, env: { ...process.env, STUB_KEY: "sk-local" } });
  return JSON.parse(stdout) as { label: string; executions: { test: number; outcome: string; failedNode: string | null; reason: string | null; outputs: Record<string, { kind: string }> }[] };
}

describe.skipIf(!benchmarkDir)(`dry run with --endpoint (local execution) ${benchmarkMissingReason}`, () => {
  it("sends each test's prompt to the endpoint and runs the code on the model's text", async () => {
    reply = '["Dawn", "Leaves", "Dusk"]';
    const result = await dryRun("--endpoint", stub.baseURL, "--model", "stub-model", "--api-key-env", "STUB_KEY", "--concurrency", "1");
    expect(result.label).toBe(`local execution, model stub-model at ${stub.baseURL} (not a Dify resolve rate)`);
    expect(result.executions.map((execution) => [execution.test, execution.outcome, execution.outputs.chapters?.kind])).toEqual([[1, "completed", "array"], [2, "completed", "array"], [3, "completed", "array"]]);
    expect(stub.requests).toHaveLength(3);
    const prompts = stub.requests.map((request) => request.messages.at(-1)?.content);
    expect(prompts.length).toBeGreaterThan(0);
    expect(prompts.filter((prompt) => !(typeof prompt === "string" && prompt.length > 20))).toEqual([]);
    expect(stub.requests[0]?.model).toBe("stub-model");
    expect(stub.requests[0]?.headers.authorization).toBe("Bearer sk-local");
  });

  it("fails the code node when the model's text is not the JSON it parses, which the mock model cannot predict", async () => {
    reply = "```json\n[\"Dawn\"]\n```";
    const local = await dryRun("--endpoint", stub.baseURL, "--model", "stub-model", "--concurrency", "1");
    expect(local.executions).toHaveLength(3);
    for (const execution of local.executions) {
      expect(execution.outcome).toBe("failed");
      expect(execution.reason).toBe("json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)");
    }
    const mock = await dryRun();
    expect(mock.label).toBe("dry run, mock model (a prediction, not a Dify resolve rate)");
    expect(mock.executions.map((execution) => execution.outcome)).toEqual(["completed", "completed", "completed"]);
  });
});
