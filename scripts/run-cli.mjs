#!/usr/bin/env node
// Runs a command-line entry point (`node scripts/run-cli.mjs scripts/<name>.ts [args]`, what `npm run <cli>` calls)
// from an esbuild bundle cached in node_modules/.cache/studio-cli, rebuilt when a file that went into it changes.
// Start-up is then one file to load instead of compiling TypeScript and resolving hundreds of modules, and V8's code
// cache of that file (its bytecode, written after a run) spares compiling it again. A command that asked for a worker
// thread on its last run gets one started first thing, before the bundle is even known to be current, so that the
// two start-ups overlap.
//
// The bundle is built as `tsx --conditions=react-server` would run the source (server-only imports allowed, `@/`
// paths); native and runtime-loading packages stay external and load from node_modules. The process's working
// directory is untouched, so relative paths in arguments and defaults mean what they meant with tsx.
import Module, { createRequire } from "node:module";

// Built-in modules through require(): an ES import of one builds a facade that reads every export, loading modules
// (file streams, web crypto) that nothing here uses.
const require = createRequire(import.meta.url);
const { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const { fileURLToPath, pathToFileURL } = require("node:url");
const { setFlagsFromString } = require("node:v8");
const { Script } = require("node:vm");
const { Worker } = require("node:worker_threads");

// Command-line runs are short: V8's optimising compiler spent more CPU (on its own threads) than the scoring it sped
// up. A large interrupt budget (score's CPU stops falling beyond 1e6) keeps it for code that stays hot, as in long runs.
setFlagsFromString("--interrupt-budget=1000000");

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Inside the project (also when overridden), so bundles find their external packages in node_modules and code that
// finds project files from its own location (prisma/migrations) still does.
const CACHE_DIR = process.env.STUDIO_CLI_CACHE_DIR ? path.resolve(process.env.STUDIO_CLI_CACHE_DIR) : path.join(ROOT, "node_modules", ".cache", "studio-cli");
// Bump when the build options below change, so existing bundles are rebuilt.
const BUILD_FORMAT = 4;
// A native module, and packages that load files of their own at run time (Prisma's query compiler) or are tools.
const EXTERNAL = ["better-sqlite3", "@prisma/client", "@prisma/adapter-better-sqlite3", "pg", "pg-native", "@prisma/adapter-pg", "prisma", "esbuild"];
// Files that change what a build produces without being one of its inputs.
const BUILD_SETTINGS = ["package-lock.json", "tsconfig.json", "scripts/run-cli.mjs"];
// A CommonJS bundle (V8 caches the code of scripts, not of ES modules, on Node 20); ESM code reading import.meta.url
// (the generated Prisma client) gets the bundle's own URL, as it did when the bundle was an ES module.
const BANNER = 'var __studioImportMetaUrl = require("node:url").pathToFileURL(__filename).href;';
// A cache written by a short run (--help) holds little of the code; a run this many times longer writes it again.
const RECACHE_FACTOR = 4;

function fail(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

function writeAtomically(file, data) {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, data);
  renameSync(temporary, file);
}

// fingerprintFiles is imported below, once the spare worker has started.
const inputsFingerprint = (inputs, previous) => fingerprintFiles(ROOT, [...BUILD_SETTINGS, ...inputs], { previous, extra: [`format ${BUILD_FORMAT}`] });

/** esbuild as tsx carries it (a fresh `npm ci` installs it with tsx), loaded only when a build is needed. */
async function loadEsbuild() {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve("tsx/package.json"));
  return import(pathToFileURL(fromTsx.resolve("esbuild")).href);
}

/**
 * Zod's translations of its error messages into other languages (a third of a bundle's code, compiled and loaded by
 * every run and thread) are left out: commands set no locale, and English is imported by zod's schemas directly.
 */
const withoutZodLocales = {
  name: "without-zod-locales",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`) ? { path: "zod-locales", namespace: "studio-empty" } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "studio-empty" }, () => ({ contents: "export {};", loader: "js" }));
  },
};

async function build(entry, bundle, manifestFile) {
  if (process.stderr.isTTY) process.stderr.write(`• building ${entry} (sources changed since the last run)…\n`);
  const esbuild = await loadEsbuild();
  const temporary = `${bundle}.${process.pid}.tmp`;
  let result;
  try {
    result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: [entry],
      outfile: temporary,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: `node${process.versions.node.split(".")[0]}`,
      conditions: ["react-server"],
      external: EXTERNAL,
      tsconfig: "tsconfig.json",
      banner: { js: BANNER },
      define: { "import.meta.url": "__studioImportMetaUrl" },
      // import() becomes require(): a script run through vm has no loader for dynamic imports on every Node 20.
      supported: { "dynamic-import": false },
      metafile: true,
      logLevel: "silent",
      plugins: [withoutZodLocales],
    });
  } catch (error) {
    const messages = error?.errors?.map((problem) => `${problem.location ? `${problem.location.file}:${problem.location.line}: ` : ""}${problem.text}`);
    fail(`could not build ${entry}:\n${messages?.join("\n") ?? error}`);
  }
  // Inputs are the project's own files; files inside node_modules are covered by package-lock.json.
  const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.startsWith("node_modules/"));
  renameSync(temporary, bundle);
  rmSync(`${bundle}.v8cache`, { force: true });
  const { fingerprint, record } = inputsFingerprint(inputs, {});
  writeAtomically(manifestFile, JSON.stringify({ entry, inputs, fingerprint, record }));
}

/** Milliseconds since an arbitrary start (not `performance`, whose first use loads a module of its own). */
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * Compiles `bundle` with V8's code cache of it (when there is one) and shows the script to `beforeRun`; the returned
 * function runs it as a CommonJS module, with `require` as given (`requireFor` wraps the bundle's own). Self-contained
 * (its modules are passed in), so that worker threads run the same source as eval code.
 */
function compileBundle(bundle, { readFileSync, Script, wrap, createRequire, dirname }, beforeRun) {
  let cachedData;
  try {
    cachedData = readFileSync(`${bundle}.v8cache`);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(wrap(readFileSync(bundle, "utf8")), { filename: bundle, cachedData });
  beforeRun?.(script, cachedData !== undefined && !script.cachedDataRejected);
  return (requireFor = (require) => require) => {
    const bundleModule = { exports: {} };
    script.runInThisContext().call(bundleModule.exports, bundleModule.exports, requireFor(createRequire(bundle)), bundleModule, bundle, dirname(bundle));
  };
}

const WORKER_MODULES = `{
    readFileSync: require("node:fs").readFileSync,
    Script: require("node:vm").Script,
    wrap: require("node:module").wrap,
    createRequire: require("node:module").createRequire,
    dirname: require("node:path").dirname,
  }`;

/**
 * A worker thread running `bundle` too (a command tells the thread's role by its workerData): eval code, which
 * starts without the ES module loader that loading this file in the thread would set up first.
 */
function workerStarter(bundle) {
  const source = `(${compileBundle.toString()})(${JSON.stringify(bundle)}, ${WORKER_MODULES})();`;
  return (options) => new Worker(source, { ...options, eval: true });
}

/**
 * A worker thread started before the main thread loads the bundle: it boots and compiles the bundle meanwhile, and
 * runs it once the command asks for a worker (the first message is its workerData, seen by the bundle as
 * `workerData`). Unclaimed, it does not keep the process alive.
 */
function startSpareWorker(bundle) {
  const source = `const run = (${compileBundle.toString()})(${JSON.stringify(bundle)}, ${WORKER_MODULES});
  require("node:worker_threads").parentPort.once("message", (workerData) => {
    run((require) => Object.assign((id) => (id === "node:worker_threads" || id === "worker_threads" ? { ...require(id), workerData } : require(id)), require));
  });`;
  const worker = new Worker(source, { eval: true });
  worker.unref();
  return worker;
}

/**
 * Runs the bundle, and (re)writes its code cache when it was missing or too thin. `notes` are what the last run left
 * in `<bundle>.v8cache.json`: how long it took (runMs) and whether it asked for a worker thread (workers).
 */
function runBundle(bundle, notes, spare) {
  const startWorker = workerStarter(bundle);
  let askedForWorker = false;
  globalThis.studioCliLauncher = {
    startWorker(options) {
      askedForWorker = true;
      const { workerData, ...rest } = options;
      // The spare runs with the default options (false is the default of stdout, stderr and the like).
      if (!spare || Object.keys(rest).some((key) => rest[key] !== false)) return startWorker(options);
      const claimed = spare;
      spare = null;
      claimed.ref();
      claimed.postMessage(workerData);
      return claimed;
    },
  };
  const run = compileBundle(bundle, { readFileSync, Script, wrap: Module.wrap, createRequire, dirname: path.dirname }, (script, cached) => {
    const started = nowMs();
    process.on("exit", () => {
      const elapsed = nowMs() - started;
      const recache = !cached || elapsed >= RECACHE_FACTOR * (notes.runMs ?? 0);
      try {
        if (recache) writeAtomically(`${bundle}.v8cache`, script.createCachedData());
        if (recache || notes.workers !== askedForWorker) {
          writeAtomically(`${bundle}.v8cache.json`, JSON.stringify({ runMs: recache ? Math.round(elapsed) : notes.runMs, workers: askedForWorker }));
        }
      } catch {
        // A read-only cache directory only costs the next run its compile time.
      }
    });
  });
  run();
  // Offered while the bundle starts (a command asks for its threads before its first await); unclaimed by now, it is
  // ended at once instead of booting beside a command that runs on one thread.
  void spare?.terminate();
}

const [entryArgument, ...args] = process.argv.slice(2);
if (!entryArgument) fail("usage: node scripts/run-cli.mjs scripts/<name>.ts [arguments]");
const entry = path.relative(ROOT, path.resolve(ROOT, entryArgument));
if (!entry.startsWith(`scripts${path.sep}`) || !existsSync(path.join(ROOT, entry))) fail(`no command-line entry point ${entryArgument} under scripts/`);

mkdirSync(CACHE_DIR, { recursive: true });
const name = entry.replace(/\.[cm]?tsx?$/, "").replace(/[\\/]/g, "__");
const bundle = path.join(CACHE_DIR, `${name}.cjs`);
const notes = readJson(`${bundle}.v8cache.json`) ?? {};
/** Which file the bundle is (a rebuild renames a new one into place), or null when there is none. */
const bundleVersion = () => {
  try {
    const { ino, mtimeMs } = statSync(bundle);
    return `${ino}:${mtimeMs}`;
  } catch {
    return null;
  }
};
// A command that asked for a worker thread last time (scoring a directory) gets one started now, before the checks
// below, so that its start-up overlaps all of the main thread's; a bundle found stale ends it unused.
const spareBundle = notes.workers === true ? bundleVersion() : null;
let spare = spareBundle !== null ? startSpareWorker(bundle) : null;

// Loaded after the spare starts: hashing needs node:crypto, whose loading the worker's start-up now overlaps.
const { fingerprintFiles } = await import("./lib/fingerprint.mjs");
const manifestFile = path.join(CACHE_DIR, `${name}.json`);
const manifest = readJson(manifestFile);
let fresh = false;
if (manifest?.entry === entry && Array.isArray(manifest.inputs) && existsSync(bundle)) {
  const now = inputsFingerprint(manifest.inputs, manifest.record ?? {});
  fresh = now.fingerprint === manifest.fingerprint;
  // Same bytes under new modification times: keep the bundle, and the stat shortcut for next time.
  if (fresh && JSON.stringify(now.record) !== JSON.stringify(manifest.record)) writeAtomically(manifestFile, JSON.stringify({ ...manifest, record: now.record }));
}
// A spare that may have read another version of the bundle (another run rebuilt it meanwhile) is not used either.
if (!fresh || bundleVersion() !== spareBundle) {
  void spare?.terminate();
  spare = null;
}
if (!fresh) await build(entry, bundle, manifestFile);

// The command sees the arguments it would have seen when run directly.
process.argv = [process.argv[0], bundle, ...args];
runBundle(bundle, notes, spare);
