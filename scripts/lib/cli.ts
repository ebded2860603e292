// Plumbing the database command lines share: options parsed against a usage text, the --database option, a database
// brought up to the committed migrations and a client closed on every path, and main()'s return value as the exit
// status. Bad arguments always exit with 2; a database the command cannot use prints one line and exits with 1.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { createDatabaseClient, type Database } from "@/lib/server/db";
import { loadServerEnv, type ResolvedServerEnv } from "@/lib/server/env";
import { DatabaseUnusable, describeMigration, migrateAnyDatabase } from "./migrate";

/** --json, --database and --help, which the data command lines take alike (describe them in each usage text). */
export const OUTPUT_OPTIONS = {
  json: { type: "boolean" },
  database: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

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
 * Creates the SQLite file (or PostgreSQL database) when missing and applies pending migrations, saying so in one line on stderr. Every CLI
 * that opens the database calls this first (withDatabase does); throws DatabaseUnusable, which runCommandLine prints.
 */
export async function prepareDatabase(url: string): Promise<void> {
  const line = describeMigration(await migrateAnyDatabase(url));
  if (line) process.stderr.write(`${line}\n`);
}

/** Runs `body` with a database client for `url` (migrated first) and disconnects it afterwards, whatever happens. */
export async function withDatabase<T>(url: string, body: (db: Database) => Promise<T>): Promise<T> {
  await prepareDatabase(url);
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
      if (error instanceof DatabaseUnusable || isEnvironmentError(error)) {
        const message = error instanceof Error ? error.message : String(error);
        console.error(`error: ${message.split("\n").filter(Boolean).slice(-3).join("\n")}`);
        process.exit(ENVIRONMENT_ERROR);
      }
      console.error(error instanceof Error ? (error.stack ?? error.message) : error);
      process.exit(INTERNAL_ERROR);
    },
  );
}

// -- option values: each throws UsageError naming the option, which main() answers with the usage (status 2) ----------

/** A command line the CLI cannot run; main() catches it and returns usageError(message, USAGE). */
export class UsageError extends Error {}

export function wholeNumber(value: string | undefined, name: string, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < min) throw new UsageError(`--${name} must be a whole number ≥ ${min} (got "${value}")`);
  return number;
}

export function decimal(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number) || number < 0) throw new UsageError(`--${name} must be a number ≥ 0 (got "${value}")`);
  return number;
}

export function required(value: string | undefined, name: string): string {
  if (value === undefined || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

/** --endpoint: an http(s) base URL of an OpenAI-compatible API. */
export function endpointOption(value: string | undefined): string {
  const endpoint = required(value, "endpoint");
  if (!/^https?:\/\/[^/]/i.test(endpoint)) throw new UsageError(`--endpoint must be an http(s) base URL such as http://127.0.0.1:8000/v1 (got "${endpoint}")`);
  return endpoint;
}

/** --api-key-env VAR: the key from that environment variable (null without the option; local servers need none). */
export function apiKeyFromEnv(variable: string | undefined): string | null {
  if (variable === undefined) return null;
  const key = process.env[variable] ?? null;
  if (!key) throw new UsageError(`--api-key-env ${variable}: that environment variable is not set`);
  return key;
}

/** The first ten problems of unreadable input, one a line. */
export function describeIssues(issues: readonly { message: string }[]): string {
  return issues
    .slice(0, 10)
    .map((entry) => `  ${entry.message}`)
    .join("\n");
}

/**
 * parseCommandLine, then `toOptions` over the values: a UsageError it throws is answered with the usage (status 2).
 * A number is the exit status to return at once.
 */
export function parseOptions<T extends ParseArgsConfig, O>(config: T, usage: string, toOptions: (values: ReturnType<typeof parseArgs<T>>["values"]) => O, helpOn: "stdout" | "stderr" = "stdout"): O | number {
  const parsed = parseCommandLine(config, usage, helpOn);
  if (typeof parsed === "number") return parsed;
  try {
    return toOptions(parsed.values);
  } catch (error) {
    if (error instanceof UsageError) return usageError(error.message, usage);
    throw error;
  }
}
