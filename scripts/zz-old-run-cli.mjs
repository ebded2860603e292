#!/usr/bin/env node
// Runs a command-line entry point (`node scripts/run-cli.mjs scripts/<name>.ts [args]`, what `npm run <cli>` calls)
// from an esbuild bundle cached in node_modules/.cache/studio-cli, rebuilt when a file that went into it changes.
// Start-up is then one file to load instead of compiling TypeScript and resolving hundreds of modules.
//
// The bundle is built as `tsx --conditions=react-server` would run the source (server-only imports allowed, `@/`
// paths); native and runtime-loading packages stay external and load from node_modules. The process's working
// directory is untouched, so relative paths in arguments and defaults mean what they meant with tsx.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
// Inside the project (also when overridden), so bundles find their external packages in node_modules and code that
// finds project files from its own location (prisma/migrations) still does.
const CACHE_DIR = process.env.STUDIO_CLI_CACHE_DIR ? path.resolve(process.env.STUDIO_CLI_CACHE_DIR) : path.join(ROOT, "node_modules", ".cache", "studio-cli");
// Bump when the build options below change, so existing bundles are rebuilt.
const BUILD_FORMAT = 2;
// A native module, and packages that load files of their own at run time (Prisma's query compiler) or are tools.
const EXTERNAL = ["better-sqlite3", "@prisma/client", "@prisma/adapter-better-sqlite3", "pg", "pg-native", "@prisma/adapter-pg", "prisma", "esbuild"];
// Files that change what a build produces without being one of its inputs.
const BUILD_SETTINGS = ["package-lock.json", "tsconfig.json", "scripts/run-cli.mjs"];
// The bundle is an ES module; code written for CommonJS (our scripts' __dirname, packages' require) gets both back.
const BANNER = [
  'import { createRequire as __studioCreateRequire } from "node:module";',
  'import { fileURLToPath as __studioFileURLToPath } from "node:url";',
  "const require = __studioCreateRequire(import.meta.url);",
  "const __filename = __studioFileURLToPath(import.meta.url);",
  'const __dirname = __filename.slice(0, __filename.lastIndexOf("/"));',
].join("\n");

function fail(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(1);
}

/** Changes whenever one of `files` (relative to the root) changes size or modification time, or disappears. */
function fingerprint(files) {
  const hash = createHash("sha256").update(`format ${BUILD_FORMAT}\n`);
  for (const file of [...BUILD_SETTINGS, ...files]) {
    try {
      const stat = statSync(path.resolve(ROOT, file));
      hash.update(`${file}:${stat.size}:${stat.mtimeMs}\n`);
    } catch {
      hash.update(`${file}:missing\n`);
    }
  }
  return hash.digest("hex");
}

function readManifest(file) {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return null;
  }
}

/** esbuild as tsx carries it (a fresh `npm ci` installs it with tsx), loaded only when a build is needed. */
async function loadEsbuild() {
  const fromTsx = createRequire(createRequire(import.meta.url).resolve("tsx/package.json"));
  return import(pathToFileURL(fromTsx.resolve("esbuild")).href);
}

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
      format: "esm",
      target: `node${process.versions.node.split(".")[0]}`,
      conditions: ["react-server"],
      external: EXTERNAL,
      tsconfig: "tsconfig.json",
      banner: { js: BANNER },
      metafile: true,
      logLevel: "silent",
    });
  } catch (error) {
    const messages = error?.errors?.map((problem) => `${problem.location ? `${problem.location.file}:${problem.location.line}: ` : ""}${problem.text}`);
    fail(`could not build ${entry}:\n${messages?.join("\n") ?? error}`);
  }
  // Inputs are the project's own files; files inside node_modules are covered by package-lock.json.
  const inputs = Object.keys(result.metafile.inputs).filter((file) => !file.startsWith("node_modules/"));
  renameSync(temporary, bundle);
  const manifestTemporary = `${manifestFile}.${process.pid}.tmp`;
  writeFileSync(manifestTemporary, JSON.stringify({ entry, inputs, fingerprint: fingerprint(inputs) }));
  renameSync(manifestTemporary, manifestFile);
}

const [entryArgument, ...args] = process.argv.slice(2);
if (!entryArgument) fail("usage: node scripts/run-cli.mjs scripts/<name>.ts [arguments]");
const entry = path.relative(ROOT, path.resolve(ROOT, entryArgument));
if (!entry.startsWith(`scripts${path.sep}`) || !existsSync(path.join(ROOT, entry))) fail(`no command-line entry point ${entryArgument} under scripts/`);

mkdirSync(CACHE_DIR, { recursive: true });
const name = entry.replace(/\.[cm]?tsx?$/, "").replace(/[\\/]/g, "__");
const bundle = path.join(CACHE_DIR, `${name}.mjs`);
const manifestFile = path.join(CACHE_DIR, `${name}.json`);
const manifest = readManifest(manifestFile);
const fresh = manifest?.entry === entry && existsSync(bundle) && manifest.fingerprint === fingerprint(manifest.inputs);
if (!fresh) await build(entry, bundle, manifestFile);

// The command sees the arguments it would have seen when run directly.
process.argv = [process.argv[0], bundle, ...args];
await import(pathToFileURL(bundle).href);
