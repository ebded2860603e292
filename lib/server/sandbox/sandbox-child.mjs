// The sandbox process: runs model-written code nodes (Python in Pyodide, JavaScript in QuickJS) for the parent's
// code runner (code-runner.ts), one request at a time over IPC. The parent starts it under Node's permission model
// (file reads only of the two engines' packages, no child processes, workers or addons) and without code generation
// from strings; before any model code runs, this file takes away the globals that reach the host (process, fetch, ...).
import { constants as fsConstants } from "node:fs";
import { constants as osConstants } from "node:os";
import { pathToFileURL } from "node:url";

const ipc = process;
const pyodideDir = process.env.SANDBOX_PYODIDE_DIR;
const quickjsEntry = process.env.SANDBOX_QUICKJS_ENTRY;
const quickjsVariantEntry = process.env.SANDBOX_QUICKJS_VARIANT_ENTRY;
const jsMemoryBytes = Number(process.env.SANDBOX_JS_MEMORY_BYTES) || 256 * 1024 * 1024;
const MAX_RESULT_CHARS = 8 * 1024 * 1024;

// Emscripten's file-system setup asks process.binding for constants, which the permission model refuses.
process.binding = (name) => {
  if (name === "constants") return { fs: fsConstants, os: osConstants };
  throw new Error(`process.binding(${name}) is not available in the sandbox`);
};

let pyodide = null;
let quickjs = null;

async function loadEngines() {
  const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
  // An empty jsglobals: Python's `js` module sees no host object.
  pyodide = await loadPyodide({ indexURL: `${pyodideDir}/`, jsglobals: {}, stdout: () => {}, stderr: () => {}, env: { HOME: "/home/pyodide" } });
  pyodide.unregisterJsModule("js");
  pyodide.unregisterJsModule("pyodide_js");
  pyodide.runPython("import sys\nfor _name in ('js', 'pyodide_js'):\n    sys.modules.pop(_name, None)\ndel _name, sys");
  const core = await import(pathToFileURL(quickjsEntry).href);
  const variant = (await import(pathToFileURL(quickjsVariantEntry).href)).default;
  quickjs = await core.newQuickJSWASMModuleFromVariant(variant);
  for (const name of ["process", "fetch", "WebSocket", "XMLHttpRequest", "EventSource", "Request", "Response", "Headers", "navigator"]) {
    try {
      delete globalThis[name];
    } catch {
      globalThis[name] = undefined;
    }
  }
}

const RUN_PYTHON = `
import json as __json, sys as __sys, traceback as __traceback
def __dify_run(__code, __inputs_json):
    __before = set(__sys.modules)
    __scope = {"__name__": "__main__"}
    try:
        exec(compile(__code, "<code>", "exec"), __scope)
        __output = __scope["main"](**__json.loads(__inputs_json))
        return "ok", __json.dumps(__output, indent=4)
    except BaseException as __error:
        __lines = __traceback.format_exception_only(type(__error), __error)
        return "error", "".join(__lines).strip()
    finally:
        for __name in set(__sys.modules) - __before:
            __sys.modules.pop(__name, None)
`;

let runPython = null;

function python(code, inputs) {
  if (!runPython) {
    pyodide.runPython(RUN_PYTHON);
    runPython = pyodide.globals.get("__dify_run");
  }
  const answer = runPython(code, JSON.stringify(inputs));
  const [status, text] = answer.toJs();
  answer.destroy();
  return status === "ok" ? parse(text) : { ok: false, kind: "error", reason: text };
}

function javascript(code, inputs) {
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(jsMemoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  const context = runtime.newContext();
  try {
    // As Dify's Node.js runner: the code, then main called with the inputs object, its value JSON-encoded.
    const result = context.evalCode(`${code}\n;JSON.stringify(main(${JSON.stringify(inputs)}))`, "code.js");
    if (result.error) {
      const error = context.dump(result.error);
      result.error.dispose();
      const message = typeof error === "object" && error !== null ? `${error.name ?? "Error"}: ${error.message ?? ""}` : String(error);
      return { ok: false, kind: /out of memory/i.test(message) ? "memory" : "error", reason: message };
    }
    const text = context.dump(result.value);
    result.value.dispose();
    return typeof text === "string" ? parse(text) : { ok: false, kind: "error", reason: "main() returned a value JSON cannot encode." };
  } finally {
    context.dispose();
    runtime.dispose();
  }
}

function parse(text) {
  if (text.length > MAX_RESULT_CHARS) return { ok: false, kind: "error", reason: "The code's output is too large." };
  try {
    return { ok: true, result: JSON.parse(text) };
  } catch {
    return { ok: false, kind: "error", reason: "Failed to parse result" };
  }
}

const ready = loadEngines();
ready.then(
  () => ipc.send({ type: "ready" }),
  (error) => {
    ipc.send({ type: "broken", reason: String(error?.message ?? error) });
  },
);

ipc.on("message", async (message) => {
  await ready;
  let answer;
  try {
    answer = message.language === "javascript" ? javascript(message.code, message.inputs) : python(message.code, message.inputs);
  } catch (error) {
    answer = { ok: false, kind: "error", reason: String(error?.message ?? error).split("\n").filter(Boolean).slice(-1)[0] ?? "error" };
  }
  ipc.send({ type: "answer", id: message.id, answer });
});
