import "server-only";
// The validated server configuration. Fails fast with every invalid variable named.
// In local mode a missing NEXTAUTH_SECRET is generated once and kept in data/.auth-secret.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { formatEnvIssues, parseServerEnv, type ServerEnv } from "@/lib/config/server-env-schema";
import { resolveDatabaseUrl } from "@/lib/database-url";

export interface ResolvedServerEnv extends ServerEnv {
  DATABASE_URL: string;
  NEXTAUTH_SECRET: string;
}

export const PROJECT_ROOT = process.cwd();

function localSecret(): string {
  const secretFile = path.join(PROJECT_ROOT, "data", ".auth-secret");
  if (existsSync(secretFile)) return readFileSync(secretFile, "utf8").trim();
  mkdirSync(path.dirname(secretFile), { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(secretFile, secret, { mode: 0o600 });
  return secret;
}

export function loadServerEnv(raw: Record<string, string | undefined> = process.env): ResolvedServerEnv {
  const parsed = parseServerEnv(raw);
  if (!parsed.ok) {
    throw new Error(`Invalid server configuration:\n${formatEnvIssues(parsed.issues)}`);
  }
  const env = parsed.value;
  let secret = env.NEXTAUTH_SECRET;
  if (!secret) {
    if (env.APP_ENV === "production") {
      throw new Error("Invalid server configuration:\n  NEXTAUTH_SECRET: required when APP_ENV=production");
    }
    secret = localSecret();
  }
  return {
    ...env,
    DATABASE_URL: resolveDatabaseUrl(env.DATABASE_URL, PROJECT_ROOT),
    NEXTAUTH_SECRET: secret,
  };
}

let cached: ResolvedServerEnv | undefined;

export function serverEnv(): ResolvedServerEnv {
  cached ??= loadServerEnv();
  return cached;
}
