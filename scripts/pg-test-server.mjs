#!/usr/bin/env node
// Starts a throwaway PostgreSQL server from the distribution's binaries (Debian's `postgresql` package: initdb,
// pg_ctl) in a temporary folder on a free 127.0.0.1 port, with no container, and removes it all when stopped.
//   node scripts/pg-test-server.mjs                 prints DATABASE_URL=… and serves until Ctrl-C
//   node scripts/pg-test-server.mjs -- <command…>   runs the command with DATABASE_URL (and C2W_TEST_POSTGRES_URL) set
import { spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const SUPERUSER = "postgres";

/** The folder holding initdb and pg_ctl: PG_BIN, then PATH, then the newest /usr/lib/postgresql/<version>/bin. */
export function findPostgresBin(env = process.env) {
  const candidates = [];
  if (env.PG_BIN) candidates.push(env.PG_BIN);
  for (const dir of (env.PATH ?? "").split(path.delimiter)) if (dir) candidates.push(dir);
  const debianRoot = "/usr/lib/postgresql";
  if (existsSync(debianRoot)) {
    const versions = readdirSync(debianRoot).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a));
    for (const version of versions) candidates.push(path.join(debianRoot, version, "bin"));
  }
  return candidates.find((dir) => existsSync(path.join(dir, "initdb")) && existsSync(path.join(dir, "pg_ctl"))) ?? null;
}

/** Why PostgreSQL tests cannot run here, or null when they can. */
export function postgresUnavailableReason(env = process.env) {
  if (env.C2W_TEST_POSTGRES_URL) return null;
  if (findPostgresBin(env) === null) {
    return "PostgreSQL binaries (initdb, pg_ctl) not found: install Debian's `postgresql` package, set PG_BIN, or set C2W_TEST_POSTGRES_URL to a server to use";
  }
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// initdb and postgres refuse to run as root; as root, run them as the package's `postgres` user.
function asServerUser(bin, args) {
  const asRoot = typeof process.getuid === "function" && process.getuid() === 0;
  return asRoot ? ["runuser", ["-u", SUPERUSER, "--", bin, ...args]] : [bin, args];
}

function run(bin, args, what) {
  const [command, commandArgs] = asServerUser(bin, args);
  const result = spawnSync(command, commandArgs, { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`${what} failed (${command} ${commandArgs.join(" ")}):\n${result.error?.message ?? ""}${result.stdout ?? ""}${result.stderr ?? ""}`);
  }
}

/**
 * Initialises and starts a server. Returns its `url` (database `postgres`, superuser `postgres`, no password,
 * trust authentication on loopback only) and `stop()`, which shuts it down and deletes its folder.
 */
export async function startPostgres({ port } = {}) {
  const bin = findPostgresBin();
  if (bin === null) throw new Error(postgresUnavailableReason({ ...process.env, C2W_TEST_POSTGRES_URL: "" }));
  const dir = mkdtempSync(path.join(tmpdir(), "c2w-postgres-"));
  const dataDir = path.join(dir, "data");
  if (typeof process.getuid === "function" && process.getuid() === 0) {
    const ids = spawnSync("id", ["-u", SUPERUSER], { encoding: "utf8" });
    const gids = spawnSync("id", ["-g", SUPERUSER], { encoding: "utf8" });
    if (ids.status !== 0) throw new Error(`running as root needs the '${SUPERUSER}' user (created by the postgresql package)`);
    chownSync(dir, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
  }
  const listenPort = port ?? (await freePort());
  let started = false;
  const stop = () => {
    if (started) {
      started = false;
      const [command, commandArgs] = asServerUser(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      spawnSync(command, commandArgs, { stdio: "ignore" });
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(path.join(bin, "initdb"), ["-D", dataDir, "-U", SUPERUSER, "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"], "initdb");
    // Durability settings off: the data is thrown away, and tests run several times faster without fsync.
    const serverOptions = [
      `-p ${listenPort}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${dir}`,
      "-c fsync=off",
      "-c synchronous_commit=off",
      "-c full_page_writes=off",
      "-c max_connections=200",
    ].join(" ");
    run(path.join(bin, "pg_ctl"), ["-D", dataDir, "-l", path.join(dir, "server.log"), "-o", serverOptions, "-w", "-t", "60", "start"], "pg_ctl start");
    started = true;
  } catch (error) {
    stop();
    throw error;
  }
  return { url: `postgresql://${SUPERUSER}@127.0.0.1:${listenPort}/postgres`, port: listenPort, dir, stop };
}

async function main(argv) {
  const separator = argv.indexOf("--");
  const command = separator >= 0 ? argv.slice(separator + 1) : [];
  const server = await startPostgres();
  const cleanUp = () => server.stop();
  process.on("exit", cleanUp);
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => process.exit(130));
  if (command.length === 0) {
    console.log(`DATABASE_URL=${server.url}`);
    console.error("PostgreSQL is running; Ctrl-C stops it and deletes its data.");
    setInterval(() => {}, 1 << 30);
    return;
  }
  const child = spawn(command[0], command.slice(1), {
    stdio: "inherit",
    env: { ...process.env, DATABASE_URL: server.url, C2W_TEST_POSTGRES_URL: server.url },
  });
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
