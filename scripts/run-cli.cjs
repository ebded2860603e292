#!/usr/bin/env node
// Runs a command-line entry point (`node scripts/run-cli.cjs scripts/<name>.ts [args]`, what `npm run <cli>` calls)
// from an esbuild bundle cached in node_modules/.cache/studio-cli, rebuilt when a file that went into it changes.
// Start-up is then one file to load instead of compiling TypeScript and resolving hundreds of modules, and V8's code
// cache of that file (its bytecode, written after a run) spares compiling it again. A command that asked for a worker
// thread on its last run gets one started first thing, before the bundle is even known to be current, so that the
// two start-ups overlap.
//
// The bundle is built as `tsx --conditions=react-server` would run the source (server-only imports allowed, `@/`
// paths); native and runtime-loading packages stay external and load from node_modules. The process's working
// directory is untouched, so relative paths in arguments and defaults mean what they meant with tsx.
"use strict";
// CommonJS, not an ES module: Node's ES module loader costs the process several milliseconds before the first line
// runs, and everything here is built-in modules through require() anyway.
const Module = require("node:module");
const { createRequire } = Module;
const { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } = require("node:fs");
const path = require("node:path");
const { cachedDataVersionTag, setFlagsFromString } = require("node:v8");
const { Script } = require("node:vm");
const { Worker } = require("node:worker_threads");

// Command-line runs are short: V8's optimising compiler spent more CPU (on its own threads) than the scoring it sped
// up. A large interrupt budget (score's CPU stops falling beyond 1e6) keeps it for code that stays hot, as in long runs.
const BUDGET_FLAG = "--interrupt-budget=1000000";
/** The flags V8 started with, as code caches (the bundle's, Node's own modules') are checked against them. */
const STARTING_TAG = cachedDataVersionTag();

const ROOT = path.resolve(__dirname, "..");
// Inside the project (also when overridden), so bundles find their external packages in node_modules and code that
// finds project files from its own location (prisma/migrations) still does.
const CACHE_DIR = process.env.STUDIO_CLI_CACHE_DIR ? path.resolve(process.env.STUDIO_CLI_CACHE_DIR) : path.join(ROOT, "node_modules", ".cache", "studio-cli");
// Bump when the build options below change, so existing bundles are rebuilt.
const BUILD_FORMAT = 4;
// A native module, and packages that load files of their own at run time (Prisma's query compiler) or are tools.
const EXTERNAL = ["better-sqlite3", "@prisma/client", "@prisma/adapter-better-sqlite3", "pg", "pg-native", "@prisma/adapter-pg", "prisma", "esbuild"];
// Files that change what a build produces without being one of its inputs.
const BUILD_SETTINGS = ["package-lock.json", "tsconfig.json", "scripts/run-cli.cjs"];
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

// fingerprintFiles and unchangedSince are required below, once the spare worker has started.
const inputsFingerprint = (inputs, previous) => fingerprintFiles(ROOT, [...BUILD_SETTINGS, ...inputs], { previous, extra: [`format ${BUILD_FORMAT}`] });

/** esbuild as tsx carries it (a fresh `npm ci` installs it with tsx), loaded only when a build is needed. */
function loadEsbuild() {
  return createRequire(require.resolve("tsx/package.json"))("esbuild");
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
  const esbuild = loadEsbuild();
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

/**
 * V8's own `--interrupt-budget` flag, once it is known to be what this process started with (the last run's note, or
 * else `node --v8-options`); null when it is not (another value given on the command line), or cannot be told.
 */
function startingBudgetFlag(noted) {
  const startedWith = (flag) => {
    setFlagsFromString(flag);
    return cachedDataVersionTag() === STARTING_TAG;
  };
  if (typeof noted === "string" && noted.startsWith("--interrupt-budget=") && startedWith(noted)) return noted;
  try {
    const options = require("node:child_process").execFileSync(process.execPath, ["--v8-options"], { encoding: "utf8", env: { ...process.env, NODE_EXTRA_CA_CERTS: "" } });
    const flag = /default: (--interrupt-budget=\d+)/.exec(options)?.[1];
    if (flag && startedWith(flag)) return flag;
  } catch {
    // No answer: the budget is then set for the whole run, as a fallback.
  }
  return null;
}

/**
 * Raises the interrupt budget only while no thread is compiling: V8 rejects a code cache (the bundle's, and Node's
 * own modules' in a booting worker) made under other flags. `cells` (shared by all threads): a lock, the number of
 * threads compiling, then one cell per ticket saying that ticket's compile is over. Self-contained, for worker threads.
 */
function budgetGate(cells, setFlagsFromString, raised, starting) {
  const lock = () => {
    while (Atomics.compareExchange(cells, 0, 0, 1) !== 0);
  };
  return {
    /** Before a thread compiles (called on the main thread when it starts one). */
    enter() {
      lock();
      if (Atomics.add(cells, 1, 1) === 0) setFlagsFromString(starting);
      Atomics.store(cells, 0, 0);
    },
    /** After that thread compiled, or ended without (idempotent per ticket). */
    leave(ticket) {
      lock();
      if (Atomics.compareExchange(cells, 2 + ticket, 0, 1) === 0 && Atomics.sub(cells, 1, 1) === 1) setFlagsFromString(raised);
      Atomics.store(cells, 0, 0);
    },
  };
}

/** Milliseconds since an arbitrary start (not `performance`, whose first use loads a module of its own). */
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/**
 * Compiles `bundle` with V8's code cache of it (when there is one), tells `compiled`, and shows the script to
 * `beforeRun`; the returned function runs it as a CommonJS module, with `require` as given (`requireFor` wraps the
 * bundle's own). Self-contained (its modules are passed in), so that worker threads run the same source as eval code.
 */
function compileBundle(bundle, { readFileSync, Script, wrap, createRequire, dirname, compiled }, beforeRun) {
  let cachedData;
  try {
    cachedData = readFileSync(`${bundle}.v8cache`);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(wrap(readFileSync(bundle, "utf8")), { filename: bundle, cachedData });
  compiled();
  beforeRun?.(script, cachedData !== undefined && !script.cachedDataRejected);
  return (requireFor = (require) => require) => {
    const bundleModule = { exports: {} };
    script.runInThisContext().call(bundleModule.exports, bundleModule.exports, requireFor(createRequire(bundle)), bundleModule, bundle, dirname(bundle));
  };
}

/** How many threads a run can start under the gate; more still work, compiling without their code cache. */
const GATED_THREADS = 16;
const gateCells = new Int32Array(new SharedArrayBuffer(4 * (2 + GATED_THREADS)));
let nextTicket = 0;

/**
 * The gate's share for a thread about to compile, entered now: `leave()` once it compiled (or will not), and what a
 * worker thread needs to leave it itself (`shared`). Null when the budget is not gated.
 */
function gateTicket(startingFlag) {
  if (startingFlag === null || nextTicket >= GATED_THREADS) return null;
  const ticket = nextTicket++;
  const gate = budgetGate(gateCells, setFlagsFromString, BUDGET_FLAG, startingFlag);
  gate.enter();
  return { leave: () => gate.leave(ticket), shared: { cells: gateCells, ticket, raised: BUDGET_FLAG, starting: startingFlag } };
}

/**
 * A worker thread running `bundle` (a command tells the thread's role by its workerData, which comes in the thread's
 * own workerData, or as its first message for a spare): eval code, which starts without the ES module loader that
 * loading this file in the thread would set up first.
 */
function startWorker(bundle, startingFlag, options, spare) {
  const ticket = gateTicket(startingFlag);
  const source = `const { parentPort, workerData: { gate, workerData } } = require("node:worker_threads");
  const leave = gate ? (${budgetGate.toString()})(gate.cells, require("node:v8").setFlagsFromString, gate.raised, gate.starting).leave : null;
  const run = (${compileBundle.toString()})(${JSON.stringify(bundle)}, {
    readFileSync: require("node:fs").readFileSync,
    Script: require("node:vm").Script,
    wrap: require("node:module").wrap,
    createRequire: require("node:module").createRequire,
    dirname: require("node:path").dirname,
    compiled: () => leave?.(gate.ticket),
  });
  const runWith = (workerData) =>
    run((require) => Object.assign((id) => (id === "node:worker_threads" || id === "worker_threads" ? { ...require(id), workerData } : require(id)), require));
  ${spare ? "parentPort.once(\"message\", runWith);" : "runWith(workerData);"}`;
  const worker = new Worker(source, { ...options, eval: true, workerData: { gate: ticket?.shared ?? null, workerData: options.workerData } });
  // One that ends before it compiled (it failed to start) does not hold the budget back.
  if (ticket) worker.once("exit", ticket.leave);
  return { worker, leave: () => ticket?.leave() };
}

/**
 * A worker thread started before the main thread loads the bundle: it boots and compiles the bundle meanwhile, and
 * runs it once the command asks for a worker (with its workerData as the first message). Unclaimed, it does not keep
 * the process alive.
 */
function startSpareWorker(bundle, startingFlag) {
  const { worker, leave } = startWorker(bundle, startingFlag, {}, true);
  worker.unref();
  return {
    claim: (workerData) => {
      worker.ref();
      worker.postMessage(workerData);
      return worker;
    },
    end: () => {
      leave();
      void worker.terminate();
    },
  };
}

/**
 * Runs the bundle, and (re)writes its code cache when it was missing or too thin. `notes` are what the last run left
 * in `<bundle>.v8cache.json`: how long it took (runMs), whether it asked for a worker thread (workers), and V8's own
 * interrupt budget flag (budgetFlag).
 */
function runBundle(bundle, notes, spare, startingFlag) {
  let askedForWorker = false;
  globalThis.studioCliLauncher = {
    startWorker(options) {
      askedForWorker = true;
      const { workerData, ...rest } = options;
      // The spare runs with the default options (false is the default of stdout, stderr and the like).
      if (!spare || Object.keys(rest).some((key) => rest[key] !== false)) return startWorker(bundle, startingFlag, options, false).worker;
      const claimed = spare;
      spare = null;
      return claimed.claim(workerData);
    },
  };
  const ticket = gateTicket(startingFlag);
  const compiled = () => ticket?.leave();
  const run = compileBundle(bundle, { readFileSync, Script, wrap: Module.wrap, createRequire, dirname: path.dirname, compiled }, (script, cached) => {
    const started = nowMs();
    process.on("exit", () => {
      const elapsed = nowMs() - started;
      const recache = !cached || elapsed >= RECACHE_FACTOR * (notes.runMs ?? 0);
      try {
        // Made under the flags the next run compiles with (the budget is raised only after compiling).
        if (recache && startingFlag !== null) setFlagsFromString(startingFlag);
        if (recache) writeAtomically(`${bundle}.v8cache`, script.createCachedData());
        if (recache || notes.workers !== askedForWorker || notes.budgetFlag !== startingFlag) {
          const runMs = recache ? Math.round(elapsed) : notes.runMs;
          writeAtomically(`${bundle}.v8cache.json`, JSON.stringify({ runMs, workers: askedForWorker, budgetFlag: startingFlag }));
        }
      } catch {
        // A read-only cache directory only costs the next run its compile time.
      }
    });
  });
  run();
  // Offered while the bundle starts (a command asks for its threads before its first await); unclaimed by now, it is
  // ended at once instead of booting beside a command that runs on one thread.
  spare?.end();
}

const [entryArgument, ...args] = process.argv.slice(2);
if (!entryArgument) fail("usage: node scripts/run-cli.cjs scripts/<name>.ts [arguments]");
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
const startingFlag = startingBudgetFlag(notes.budgetFlag);
// Not known (a budget given on the command line): raised now for the whole run, code caches made under it.
if (startingFlag === null) setFlagsFromString(BUDGET_FLAG);
// A command that asked for a worker thread last time (scoring a directory) gets one started now, before the checks
// below, so that its start-up overlaps all of the main thread's; a bundle found stale ends it unused.
const spareBundle = notes.workers === true ? bundleVersion() : null;
let spare = spareBundle !== null ? startSpareWorker(bundle, startingFlag) : null;

// Loaded after the spare starts, whose start-up then overlaps the loading.
const { fingerprintFiles, unchangedSince } = require("./lib/fingerprint.cjs");
const manifestFile = path.join(CACHE_DIR, `${name}.json`);
const manifest = readJson(manifestFile);
const record = typeof manifest?.record === "object" && manifest.record !== null ? manifest.record : {};
const usable = manifest?.entry === entry && Array.isArray(manifest.inputs) && existsSync(bundle);
// Every input as the manifest recorded it (the usual start) gives the recorded fingerprint again: nothing to hash.
let fresh = usable && unchangedSince(ROOT, [...BUILD_SETTINGS, ...manifest.inputs], record);
if (usable && !fresh) {
  const now = inputsFingerprint(manifest.inputs, record);
  fresh = now.fingerprint === manifest.fingerprint;
  // Same bytes under new modification times: keep the bundle, and the stat shortcut for next time.
  if (fresh && JSON.stringify(now.record) !== JSON.stringify(manifest.record)) writeAtomically(manifestFile, JSON.stringify({ ...manifest, record: now.record }));
}
// A spare that may have read another version of the bundle (another run rebuilt it meanwhile) is not used either.
if (!fresh || bundleVersion() !== spareBundle) {
  spare?.end();
  spare = null;
}
const start = () => {
  // The command sees the arguments it would have seen when run directly.
  process.argv = [process.argv[0], bundle, ...args];
  runBundle(bundle, notes, spare, startingFlag);
};
if (fresh) start();
else void build(entry, bundle, manifestFile).then(start);
