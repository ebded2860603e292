// The server's configuration variables, validated with zod into one typed object.
// Pure: callers pass the raw environment, so the start script, the app and tests share one definition.
import { z } from "zod";
import type { Result } from "../result";

const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no", "on", "off"], {
    message: "expected true or false",
  })
  .transform((value) => ["true", "1", "yes", "on"].includes(value));

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

export const serverEnvSchema = z.object({
  /** `local` (default) seeds demo users and may generate a secret; `production` refuses both. */
  APP_ENV: z.preprocess(emptyAsUndefined, z.enum(["local", "production"]).default("local")),
  DATABASE_URL: z.preprocess(emptyAsUndefined, z.string().optional()),
  NEXTAUTH_SECRET: z.preprocess(
    emptyAsUndefined,
    z.string().min(32, "must be at least 32 characters (e.g. `openssl rand -base64 32`)").optional(),
  ),
  NEXTAUTH_URL: z.preprocess(emptyAsUndefined, z.url().optional()),
  PUBLIC_READ: z.preprocess(emptyAsUndefined, booleanFlag.default(true)),
  /** Proxies (addresses or CIDR ranges) whose X-Forwarded-For names the client; without them the connection does. */
  TRUSTED_PROXIES: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** Time one analysis of a response (scoring, its page's view, a diff) may take before it is stopped. */
  ANALYSIS_BUDGET_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().optional()),
  ALLOW_DEMO_PASSWORDS: z.preprocess(emptyAsUndefined, booleanFlag.default(false)),
  /** Do not load the demo benchmark into an empty local database. */
  SKIP_DEMO_DATA: z.preprocess(emptyAsUndefined, booleanFlag.default(false)),
  /** Address `npm start` listens on. Loopback by default: a reachable host is a deliberate choice. */
  HOST: z.preprocess(emptyAsUndefined, z.string().min(1).default("127.0.0.1")),
  /** Seed and advertise the demo accounts; default: only in local mode on a loopback HOST. */
  DEMO_ACCOUNTS: z.preprocess(emptyAsUndefined, booleanFlag.optional()),
  /** E-mail of the admin created on first start when demo accounts are off and there are no users. */
  INITIAL_ADMIN_EMAIL: z.preprocess(emptyAsUndefined, z.email().default("admin@studio.local")),
  PORT: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(65535).default(3000)),
  /** Largest single file an import accepts, in megabytes. */
  IMPORT_MAX_FILE_MB: z.preprocess(emptyAsUndefined, z.coerce.number().positive().default(50)),
  /** Largest upload request (all files together), in megabytes; refused before it is read when declared larger. */
  IMPORT_MAX_REQUEST_MB: z.preprocess(emptyAsUndefined, z.coerce.number().positive().default(200)),
  /** Most files one upload may carry. */
  IMPORT_MAX_FILES: z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().default(64)),
  /** Longest text one field of an imported record may hold, in KiB of characters; longer fields reject the import. */
  IMPORT_MAX_FIELD_KB: z.preprocess(emptyAsUndefined, z.coerce.number().positive().default(256)),
  /** Largest number of responses one import may contain. */
  IMPORT_MAX_RESPONSES: z.preprocess(emptyAsUndefined, z.coerce.number().int().positive().default(20000)),
  /** Directories the Import page may read server-side, separated by `:`. Empty: the benchmark dir only. */
  IMPORT_ALLOWED_DIRS: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** The Chat2Workflow benchmark directory (lib/server/benchmark-location.ts); empty: ../shared/chat2workflow. */
  C2W_BENCHMARK_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** 32-byte key (base64 or hex) that encrypts endpoint API keys at rest. Empty: generated once in data/.secrets-key. */
  C2W_SECRETS_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  /** Requests per minute one API access token may make to /api/v1 (then 429 with Retry-After). */
  API_RATE_LIMIT_PER_MINUTE: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(100_000).default(120)),
  /** Largest JSON body an /api/v1 request may carry, in KiB; refused with 413 before it is read when declared larger. */
  API_MAX_BODY_KB: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(1).max(10_240).default(64)),
  /** Run the job worker inside the web server process (default on). Off when `npm run worker` runs separately. */
  IN_PROCESS_WORKER: z.preprocess(emptyAsUndefined, booleanFlag.default(true)),
  /** How long a worker's lease on a job item lasts without a heartbeat; a crashed worker's items return after it. */
  WORKER_LEASE_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(500).max(3_600_000).default(30_000)),
  /** How often an idle worker looks for work. */
  WORKER_POLL_MS: z.preprocess(emptyAsUndefined, z.coerce.number().int().min(50).max(60_000).default(1_000)),
});

export type ServerEnv = z.infer<typeof serverEnvSchema>;

/** Whether `host` only accepts connections from this machine. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.trim().toLowerCase().replace(/^\[|\]$/g, "");
  return bare === "localhost" || bare === "::1" || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Demo accounts (published passwords) exist and are shown on the sign-in page only when asked for, or by default in
 * local mode on a loopback address; never in production.
 */
export function demoAccountsEnabled(env: Pick<ServerEnv, "APP_ENV" | "HOST" | "DEMO_ACCOUNTS">): boolean {
  if (env.APP_ENV === "production") return false;
  return env.DEMO_ACCOUNTS ?? isLoopbackHost(env.HOST);
}

export interface EnvIssue {
  variable: string;
  message: string;
}

export function parseServerEnv(raw: Record<string, string | undefined>): Result<ServerEnv, EnvIssue> {
  const parsed = serverEnvSchema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? "(environment)"),
      message: issue.message,
    })),
  };
}

export function formatEnvIssues(issues: EnvIssue[]): string {
  return issues.map((issue) => `  ${issue.variable}: ${issue.message}`).join("\n");
}
