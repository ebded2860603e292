// Plumbing the database command lines share: options parsed against a usage text, the --database option, a database
// brought up to the committed migrations and a client closed on every path, and main()'s return value as the exit
// status. Bad arguments always exit with 2; a database the command cannot use prints one line and exits with 1.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { createDatabaseClient, type Database } from "@/lib/server/db";
import { loadServerEnv, type ResolvedServerEnv } from "@/lib/server/env";
import { DatabaseUnusable, describeMigration, migrateDatabase } from "./migrate";

/** Exit status for a command line the CLI cannot run (unknown, missing or malformed options). */
export const BAD_ARGUMENTS = 2;

/** Prints `error: <message>` and the usage on stderr; returns the bad-arguments exit status. */
export function usageError(message: string, usage: string): number {
  console.error(`error: ${message}\n\n${usage}`);
  return BAD_ARGUMENTS;
}

/**
 * node:util parseArgs, answering a parse error with the usage (exit status 2) and --help with the usage (status 0;
 * on stdout, or on stderr for CLIs whose stdout carries only data). A number is the exit status to return at once.
 */
export function parseCommandLine<T extends ParseArgsConfig>(config: T, usage: string, helpOn: "stdout" | "stderr" = "stdout"): ReturnType<typeof parseArgs<T>> | number {
  let parsed: ReturnType<typeof parseArgs<T>>;
  try {
    parsed = parseArgs(config);
  } catch (error) {
    return usageError(error instanceof Error ? error.message : String(error), usage);
  }
  if ((parsed.values as { help?: unknown }).help) {
    if (helpOn === "stdout") console.log(usage);
    else console.error(usage);
    return 0;
  }
  return parsed;
}

/** The server environment, with the --database URL (when given) in place of DATABASE_URL. */
export function commandLineEnv(database: string | undefined): ResolvedServerEnv {
  return loadServerEnv({ ...process.env, ...(database ? { DATABASE_URL: database } : {}) });
}

/**
 * Creates the SQLite file when missing and applies pending migrations, saying so in one line on stderr. Every CLI
 * that opens the database calls this first (withDatabase does); throws DatabaseUnusable, which runCommandLine prints.
 */
export function prepareDatabase(url: string): void {
  const line = describeMigration(migrateDatabase(url));
  if (line) process.stderr.write(`${line}\n`);
}

/** Runs `body` with a database client for `url` (migrated first) and disconnects it afterwards, whatever happens. */
export async function withDatabase<T>(url: string, body: (db: Database) => Promise<T>): Promise<T> {
  prepareDatabase(url);
  const db = createDatabaseClient(url);
  try {
    return await body(db);
  } finally {
    await db.$disconnect();
  }
}

/**
 * Runs main and exits with the status it returns. An unusable database prints `error: <what and why>`; any other
 * unexpected error prints its stack. Both exit with 1.
 */
export function runCommandLine(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (error instanceof DatabaseUnusable) console.error(`error: ${error.message}`);
      else console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(1);
    },
  );
}
