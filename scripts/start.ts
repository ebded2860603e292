// `npm start`: set up the database, build the app when its sources changed since the last build, then serve it.
// Flags: --port <n> (default PORT or 3000), --rebuild (force a build), --no-build (serve the existing build).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setup } from "./setup";

const ROOT = path.resolve(__dirname, "..");
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
const FINGERPRINT_FILE = path.join(ROOT, ".next", "studio-build-fingerprint");
const SOURCE_DIRS = ["app", "components", "lib", "generated", "public", "types"];
const SOURCE_FILES = ["next.config.ts", "package-lock.json", "postcss.config.mjs", "tsconfig.json"];

function parseArgs(argv: string[]) {
  const options = { port: undefined as number | undefined, rebuild: false, build: true };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index];
    if (arg === "--port") options.port = Number(argv[++index]);
    else if (arg === "--rebuild") options.rebuild = true;
    else if (arg === "--no-build") options.build = false;
    else throw new Error(`Unknown option ${arg}. Use --port <n>, --rebuild or --no-build.`);
  }
  if (options.port !== undefined && !(Number.isInteger(options.port) && options.port > 0 && options.port < 65536)) {
    throw new Error("--port needs a number between 1 and 65535");
  }
  return options;
}

function collectFiles(dir: string, into: string[]): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) collectFiles(full, into);
    else if (!entry.name.endsWith(".test.ts")) into.push(full);
  }
}

/** Changes whenever a file that goes into the build changes, or a public build-time variable does. */
function sourceFingerprint(): string {
  const files: string[] = [];
  for (const dir of SOURCE_DIRS) collectFiles(path.join(ROOT, dir), files);
  for (const file of SOURCE_FILES) if (existsSync(path.join(ROOT, file))) files.push(path.join(ROOT, file));
  const hash = createHash("sha256");
  for (const file of files.sort()) {
    const stat = statSync(file);
    hash.update(`${path.relative(ROOT, file)}:${stat.size}:${stat.mtimeMs}\n`);
  }
  for (const [key, value] of Object.entries(process.env).sort()) {
    if (key.startsWith("NEXT_PUBLIC_")) hash.update(`${key}=${value}\n`);
  }
  return hash.digest("hex");
}

function buildIfNeeded(force: boolean, env: NodeJS.ProcessEnv): void {
  const fingerprint = sourceFingerprint();
  const previous = existsSync(FINGERPRINT_FILE) ? readFileSync(FINGERPRINT_FILE, "utf8") : null;
  const hasBuild = existsSync(path.join(ROOT, ".next", "BUILD_ID"));
  if (!force && hasBuild && previous === fingerprint) {
    console.log("• build is up to date");
    return;
  }
  console.log("• building the app (next build)…");
  const result = spawnSync(process.execPath, [NEXT_BIN, "build"], { cwd: ROOT, env, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`next build failed (exit ${result.status})`);
  writeFileSync(FINGERPRINT_FILE, fingerprint);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const env = await setup();
  const port = options.port ?? env.PORT;
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: env.DATABASE_URL,
    NEXTAUTH_SECRET: env.NEXTAUTH_SECRET,
    NEXTAUTH_URL: env.NEXTAUTH_URL ?? `http://localhost:${port}`,
    PORT: String(port),
    HOST: env.HOST,
  };
  if (options.build) buildIfNeeded(options.rebuild, childEnv);
  console.log(`• serving on http://${env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST}:${port}`);
  const server = spawn(process.execPath, [NEXT_BIN, "start", "-p", String(port), "-H", env.HOST], { cwd: ROOT, env: childEnv, stdio: "inherit" });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => server.kill(signal));
  }
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
