// Plumbing the database command lines share: options parsed against a usage text, the --database option, a database
// client closed on every path, and main()'s return value as the exit status. Bad arguments always exit with 2.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { createDatabaseClient, type Database } from "@/lib/server/db";
import { loadServerEnv, type ResolvedServerEnv } from "@/lib/server/env";

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

/** Runs `body` with a database client for `url` and disconnects it afterwards, whatever happens. */
export async function withDatabase<T>(url: string, body: (db: Database) => Promise<T>): Promise<T> {
  const db = createDatabaseClient(url);
  try {
    return await body(db);
  } finally {
    await db.$disconnect();
  }
}

/** Exit status when the environment, not the input, is at fault: configuration, a read-only or missing database, disk. */
export const ENVIRONMENT_ERROR = 3;
/** Exit status for a bug (an error nobody expected): the only case that prints a stack trace. */
export const INTERNAL_ERROR = 70;

const ENVIRONMENT_PATTERNS = [
  /Invalid server configuration/,
  /readonly database|SQLITE_READONLY|attempt to write a readonly/i,
  /unable to open database|SQLITE_CANTOPEN|SQLITE_FULL|SQLITE_IOERR|database or disk is full/i,
  /SQLITE_BUSY|database is locked/i,
  /\b(EACCES|EPERM|ENOSPC|EROFS|ENOENT)\b/,
];

/** Whether an error comes from the environment (configuration, database file, disk) rather than from a bug. */
export function isEnvironmentError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String((error as { code?: unknown }).code ?? "")}` : String(error);
  return ENVIRONMENT_PATTERNS.some((pattern) => pattern.test(text));
}

/**
 * Runs main and exits with the status it returns (0 done, 1 input rejected, 2 bad arguments). An environment
 * failure prints one line and exits with 3; anything else is a bug: its stack is printed and the status is 70.
 */
export function runCommandLine(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      if (isEnvironmentError(error)) {
        const message = error instanceof Error ? error.message : String(error);
        console.error(`error: ${message.split("\n").filter(Boolean).slice(-3).join("\n")}`);
        process.exit(ENVIRONMENT_ERROR);
      }
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(INTERNAL_ERROR);
    },
  );
}
