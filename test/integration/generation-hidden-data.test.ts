// The hidden check data never reaches a model: generating with every mode on the benchmark and on a copy whose
// check_pass_stage.json and check_resolve_stage.json are scrambled sends byte-identical requests, against a stub that
// always answers a rejected workflow (so the agentic modes make all five attempts and feedback mode reports problems).
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { benchmarkDir, benchmarkMissingReason } from "@/test/support/benchmark-dir";
import { opencodeMissingReason } from "@/test/support/opencode";
import { fixedReply, startOpenAIStub, type OpenAIStub } from "@/test/support/openai-stub";

const run = promisify(execFile);
const root = path.resolve(__dirname, "../..");
const env = { ...process.env, NODE_OPTIONS: "" };
// Two tasks whose later rounds have several End groups, so scrambled output groupings would show in any feedback.
const TASKS = ["Mermaid", "HTML"];

/** A workflow the static checks reject (start id "5", an End output the instructions never name). */
const REJECTED = [
  "<node_selection>start, llm, end</node_selection>",
  "<design_principle>A stub's fixed answer, rejected on purpose.</design_principle>",
  '<workflow>{"nodes_info": [{"id": "5", "type": "start", "param": {"variables": [["input", "string"]]}}, {"id": "6", "type": "llm", "param": {"system": "s", "user": "{{#5.input#}}"}}, {"id": "7", "type": "end", "param": {"outputs": [["out", ["text", "6"]]]}}], "edges": [["5", 0, "6"], ["6", 0, "7"]]}</workflow>',
].join("\n");

/** Every entry's value moved to the next key, lists reversed: same shapes, different answers. */
function scrambled(data: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(data);
  const reverse = (value: unknown): unknown =>
    Array.isArray(value) ? [...value].reverse().map(reverse) : typeof value === "object" && value !== null ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reverse(v)])) : value;
  return Object.fromEntries(keys.map((key, index) => [key, reverse(data[keys[(index + 1) % keys.length] as string])]));
}

async function scrambledCopy(source: string, target: string): Promise<void> {
  await mkdir(path.join(target, "dataset"), { recursive: true });
  await cp(path.join(source, "prompts"), path.join(target, "prompts"), { recursive: true });
  await cp(path.join(source, ".agents"), path.join(target, ".agents"), { recursive: true });
  await cp(path.join(source, "dataset", "query.json"), path.join(target, "dataset", "query.json"));
  for (const name of ["check_pass_stage.json", "check_resolve_stage.json"]) {
    const data = JSON.parse(await readFile(path.join(source, "dataset", name), "utf8")) as Record<string, unknown>;
    await writeFile(path.join(target, "dataset", name), JSON.stringify(scrambled(data), null, 2));
  }
}

const MODES = [
  { mode: "zero-shot", skip: null },
  { mode: "agentic", skip: null },
  { mode: "feedback", skip: null },
  { mode: "agentic-opencode", skip: opencodeMissingReason },
] as const;

describe.skipIf(!benchmarkDir)(`generation never sees the hidden check data${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  let stub: OpenAIStub;
  let dir: string;
  let copy: string;

  beforeAll(async () => {
    stub = await startOpenAIStub(fixedReply(REJECTED));
    dir = await mkdtemp(path.join(os.tmpdir(), "c2w-hidden-"));
    copy = path.join(dir, "scrambled");
    await scrambledCopy(benchmarkDir as string, copy);
  });
  afterAll(async () => {
    await stub?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the scrambled copy really holds other answers for the tasks generated", async () => {
    const read = async (base: string) => JSON.parse(await readFile(path.join(base, "dataset", "check_pass_stage.json"), "utf8")) as Record<string, unknown>;
    const [original, changed] = [await read(benchmarkDir as string), await read(copy)];
    for (const key of ["Mermaid_1", "Mermaid_2", "HTML_1", "HTML_3"]) expect(changed[key]).not.toEqual(original[key]);
  });

  for (const { mode, skip } of MODES) {
    it.skipIf(skip !== null)(`${mode}: the requests are byte-identical${skip ? ` (skipped: ${skip})` : ""}`, { timeout: 240_000 }, async () => {
      const requestsFor = async (benchmark: string, label: string): Promise<string[]> => {
        const before = stub.requests.length;
        const out = path.join(dir, `${mode}-${label}.json`);
        const args = ["scripts/run-cli.cjs", "scripts/generate.ts", "--benchmark", benchmark, "--endpoint", stub.baseURL, "--model", "stub-model", "--out", out];
        args.push("--mode", mode, "--tasks", (mode === "agentic-opencode" ? TASKS.slice(0, 1) : TASKS).join(","), "--concurrency", "1", "--work-dir", path.join(dir, "work"));
        await run("node", args, { cwd: root, env, maxBuffer: 16 * 1024 * 1024 }).catch((error: { code?: number }) => {
          // Exit 1 is expected when an agentic turn only has a fallback; anything else is a failure.
          if (error.code !== 1) throw error;
        });
        const items = JSON.parse(await readFile(out, "utf8")) as { task: string }[];
        expect(items.map((item) => item.task)).toEqual(mode === "agentic-opencode" ? TASKS.slice(0, 1) : TASKS);
        return stub.requests.slice(before).map((request) => request.raw);
      };
      const original = await requestsFor(benchmarkDir as string, "original");
      const changed = await requestsFor(copy, "scrambled");
      // zero-shot: one call per round (2 + 3); agentic modes: five rejected attempts per round.
      const rounds = mode === "agentic-opencode" ? 2 : 5;
      expect(original.length).toBeGreaterThanOrEqual(mode === "zero-shot" ? rounds : rounds * 5);
      expect(changed.length).toBe(original.length);
      // opencode's title request may overtake the agent's own: compare as sorted lists of exact bodies.
      expect([...changed].sort()).toEqual([...original].sort());
      if (mode === "feedback") expect(original.some((body) => body.includes("previous_attempt_problems"))).toBe(true);
    });
  }
});
