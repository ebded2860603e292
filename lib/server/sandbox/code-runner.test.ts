// Model-written code runs in the sandbox processes only: these tests try to read a host file, open a socket and run
// forever from Python (Pyodide) and JavaScript (QuickJS), and check each attempt fails where it is made.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dryRunTestCase } from "@/lib/dry-run/execute";
import { mockModel } from "@/lib/dry-run/mock-model";
import { convertWorkflow } from "@/lib/workflow/convert";
import type { JsonValue } from "@/lib/workflow/python-values";
import { createSandboxCodeRunner, type SandboxCodeRunner } from "./code-runner";

const SECRET = "host-secret-7f3a";
let runner: SandboxCodeRunner;
let dir: string;
let secretFile: string;
let server: Server;
let port: number;
let connections = 0;

beforeAll(async () => {
  runner = createSandboxCodeRunner({ size: 2, timeoutMs: 3_000, memoryBytes: 700 * 1024 * 1024 });
  dir = mkdtempSync(path.join(tmpdir(), "sandbox-test-"));
  secretFile = path.join(dir, "secret.txt");
  writeFileSync(secretFile, SECRET);
  server = createServer((socket) => {
    connections += 1;
    socket.end("hello");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await runner.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const python = (code: string, inputs: Record<string, JsonValue> = {}) => runner.run({ language: "python3", code, inputs });
const javascript = (code: string, inputs: Record<string, JsonValue> = {}) => runner.run({ language: "javascript", code, inputs });

describe("code nodes as Dify runs them", () => {
  it("calls Python's main with the inputs as keyword arguments and returns its dict", async () => {
    expect(await python("def main(a: int, b: str) -> dict:\n    return {'sum': a + 1, 'text': b.upper()}", { a: 41, b: "x" })).toEqual({ ok: true, result: { sum: 42, text: "X" } });
  });

  it("calls JavaScript's main with the inputs object", async () => {
    expect(await javascript("function main({a, b}) {\n  return {sum: a + 1, text: b.toUpperCase()}\n}", { a: 41, b: "x" })).toEqual({ ok: true, result: { sum: 42, text: "X" } });
  });

  it("reports the error a model's code raises, as the last line of its traceback", async () => {
    expect(await python("import json\ndef main(text):\n    return json.loads(text)", { text: "Sure! Here is the JSON" })).toEqual({
      ok: false,
      kind: "error",
      reason: "json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
    });
    const thrown = await javascript("function main({text}) { return JSON.parse(text) }", { text: "not json" });
    expect(thrown.ok).toBe(false);
    expect(!thrown.ok && thrown.reason).toMatch(/^SyntaxError/);
  });

  it("does not carry one run's modules or names into the next", async () => {
    await python("import fractions\nleak = 1\ndef main():\n    return {}");
    expect(await python("import sys\ndef main():\n    return {'leak': 'leak' in globals(), 'fractions': 'fractions' in sys.modules}")).toEqual({ ok: true, result: { leak: false, fractions: false } });
  });
});

describe("the sandbox keeps model-written code from the host", () => {
  it("Python cannot read a host file, directly or through Pyodide's bridge to JavaScript", async () => {
    const direct = await python(`def main(p):\n    return {'text': open(p).read()}`, { p: secretFile });
    expect(direct).toEqual({ ok: false, kind: "error", reason: `FileNotFoundError: [Errno 44] No such file or directory: '${secretFile}'` });
    const bridge = await python(`def main():\n    import pyodide_js\n    return {}`);
    expect(bridge).toEqual({ ok: false, kind: "error", reason: "ModuleNotFoundError: No module named 'pyodide_js'" });
    const globals = await python(`def main():\n    import js\n    return {}`);
    expect(globals).toEqual({ ok: false, kind: "error", reason: "ModuleNotFoundError: No module named 'js'" });
    // A JavaScript object from to_js reaches the Function constructor, which cannot compile code in the sandbox.
    const escape = await python(
      `from pyodide.ffi import to_js\ndef main(p):\n    f = to_js([]).constructor.constructor("return process.mainModule.require('fs').readFileSync(arguments[0], 'utf8')")\n    return {'text': f(p)}`,
      { p: secretFile },
    );
    expect(escape.ok).toBe(false);
    expect(!escape.ok && escape.reason).toContain("EvalError: Code generation from strings disallowed");
  });

  it("JavaScript cannot read a host file: QuickJS has no file system, module loader or host globals", async () => {
    const probe = await javascript(`function main() { return { kinds: [typeof require, typeof process, typeof fetch, typeof std, typeof os].join(",") } }`);
    expect(probe).toEqual({ ok: true, result: { kinds: "undefined,undefined,undefined,undefined,undefined" } });
    const imported = await javascript(`function main({p}) { return import("fs").then((fs) => fs.readFileSync(p, "utf8")) }\n`, { p: secretFile });
    // Dify's runner JSON-encodes what main returns: a promise encodes as {} and the file is never read.
    expect(imported).toEqual({ ok: true, result: {} });
  });

  it("neither language can open a socket: the connection fails and the listening server sees none", async () => {
    const pythonSocket = await python(`import socket\ndef main(port):\n    s = socket.socket()\n    s.connect(('127.0.0.1', port))\n    return {'got': s.recv(5).decode()}`, { port });
    expect(pythonSocket).toEqual({ ok: false, kind: "error", reason: "OSError: [Errno 23] Host is unreachable" });
    const pythonHttp = await python(`import urllib.request\ndef main(port):\n    return {'got': urllib.request.urlopen(f'http://127.0.0.1:{port}/').read().decode()}`, { port });
    expect(pythonHttp.ok).toBe(false);
    expect(!pythonHttp.ok && pythonHttp.reason).toMatch(/^urllib\.error\.URLError: <urlopen error \[Errno 23\] Host is unreachable>/);
    const jsFetch = await javascript(`function main({port}) { return { got: fetch("http://127.0.0.1:" + port) } }`, { port });
    expect(jsFetch).toEqual({ ok: false, kind: "error", reason: "ReferenceError: 'fetch' is not defined" });
    expect(connections).toBe(0);
  });

  it("stops code that runs past the time limit, in either language, and the next node runs", async () => {
    const started = Date.now();
    const loop = await python("def main():\n    while True:\n        pass");
    expect(loop).toEqual({ ok: false, kind: "timeout", reason: "The code ran longer than the 3 s limit and was stopped." });
    const jsLoop = await javascript("function main() { for (;;) {} }");
    expect(jsLoop).toEqual({ ok: false, kind: "timeout", reason: "The code ran longer than the 3 s limit and was stopped." });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(await python("def main():\n    return {'ok': True}")).toEqual({ ok: true, result: { ok: true } });
  });

  it("stops code that uses more memory than allowed", async () => {
    // A runner of its own with a longer time limit, so the memory limit is what stops the code on a loaded machine.
    const small = createSandboxCodeRunner({ size: 1, timeoutMs: 60_000, memoryBytes: 600 * 1024 * 1024, jsMemoryBytes: 64 * 1024 * 1024 });
    try {
      const hog = await small.run({ language: "python3", code: "def main():\n    blocks = [b'x' * (64 * 1024 * 1024) for _ in range(40)]\n    return {'n': len(blocks)}", inputs: {} });
      expect(hog).toEqual({ ok: false, kind: "memory", reason: "The code used more than 600 MiB of memory and was stopped." });
      const jsHog = await small.run({ language: "javascript", code: "function main() { const a = []; for (;;) a.push(new Array(1e5).fill(a.length)) }", inputs: {} });
      // QuickJS's own heap limit or the process's memory limit, whichever the allocation reaches first.
      expect(jsHog.ok).toBe(false);
      expect(!jsHog.ok && jsHog.kind).toBe("memory");
    } finally {
      await small.close();
    }
  });
});

describe("a dry run with a code node that never ends", () => {
  const workflow = (code: string): JsonValue => ({
    nodes_info: [
      { id: "1", type: "start", param: { variables: [["topic", "string"]] } },
      { id: "2", type: "llm", param: { system: "", user: "Write about {{#1.topic#}}" } },
      { id: "3", type: "code", param: { variables: [["topic", ["topic", "1"]]], outputs: [["title", "string"]], code } },
      { id: "4", type: "end", param: { outputs: [["title", ["title", "3"]], ["text", ["text", "2"]]] } },
    ],
    edges: [["1", 0, "2"], ["2", 0, "3"], ["3", 0, "4"]],
  });
  const dryRun = (code: string) => {
    const converted = convertWorkflow(workflow(code));
    if (!converted.ok) throw new Error(converted.issues[0]?.message);
    return dryRunTestCase({ graph: converted.value.graph, test: { topic: "tides" }, fileChecks: {}, caseFileExists: null, services: { model: mockModel, code: runner, maxSteps: 500 } });
  };

  it("fails that node with the time limit, while the nodes before it and another run beside it report", async () => {
    const [looping, finishing] = await Promise.all([dryRun("def main(topic):\n    while True:\n        pass"), dryRun("def main(topic):\n    return {'title': topic.title()}")]);
    expect(looping.outcome).toBe("failed");
    expect(looping.reason).toBe("The code ran longer than the 3 s limit and was stopped.");
    expect(looping.trace.map((step) => [step.type, step.status])).toEqual([["start", "succeeded"], ["llm", "succeeded"], ["code", "failed"]]);
    expect(looping.failedNode).toBe(looping.trace[2]?.nodeId);
    expect(finishing.outcome).toBe("completed");
    expect(finishing.outputs.title).toEqual({ kind: "text", extensions: [] });
    expect(finishing.trace.find((step) => step.type === "code")).toMatchObject({ status: "succeeded", mocked: false });
  });
});
