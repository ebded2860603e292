import "server-only";
// Instance settings (the Setting table): the default benchmark, and the GitHub token Coze packages carry.
// Reading the default needs "read"; changing it needs "administer". The token is a secret: stored encrypted,
// set and cleared by those who manage endpoints, and never read back except into their own Coze downloads.
import type { Database } from "../db";
import { assertAllowed, isAllowed } from "../authz";
import { decryptSecret, encryptSecret, secretHint } from "../secrets";
import type { SessionUser } from "../session";

export const DEFAULT_BENCHMARK_KEY = "defaultBenchmark";
export const COZE_GITHUB_TOKEN_KEY = "cozeGithubToken";

/** The admin-chosen default benchmark id, or null when none was chosen. */
export async function getDefaultBenchmarkSetting(db: Database, actor: SessionUser | null): Promise<string | null> {
  assertAllowed(actor, "read");
  const row = await db.setting.findUnique({ where: { key: DEFAULT_BENCHMARK_KEY } });
  return row?.value ?? null;
}

/** Makes a benchmark the default of pages opened without one; false when no such benchmark exists. */
export async function setDefaultBenchmark(db: Database, actor: SessionUser | null, benchmarkId: string): Promise<boolean> {
  assertAllowed(actor, "administer");
  const exists = await db.benchmark.findUnique({ where: { id: benchmarkId }, select: { id: true } });
  if (!exists) return false;
  await db.setting.upsert({
    where: { key: DEFAULT_BENCHMARK_KEY },
    create: { key: DEFAULT_BENCHMARK_KEY, value: benchmarkId, updatedBy: actor?.id ?? null },
    update: { value: benchmarkId, updatedBy: actor?.id ?? null },
  });
  return true;
}

/** What the settings page may show of the token: whether one is set, and its last 4 characters when long. */
export interface CozeTokenState {
  configured: boolean;
  hint: string;
}

export async function getCozeGithubTokenState(db: Database, actor: SessionUser | null): Promise<CozeTokenState> {
  assertAllowed(actor, "manageEndpoints");
  const row = await db.setting.findUnique({ where: { key: COZE_GITHUB_TOKEN_KEY } });
  return row ? { configured: true, hint: secretHint(decryptSecret(row.value)) } : { configured: false, hint: "" };
}

/** Stores the token encrypted; an empty token clears it, so packages carry "EMPTY" again. */
export async function setCozeGithubToken(db: Database, actor: SessionUser | null, token: string): Promise<void> {
  assertAllowed(actor, "manageEndpoints");
  const trimmed = token.trim();
  if (!trimmed) {
    await db.setting.deleteMany({ where: { key: COZE_GITHUB_TOKEN_KEY } });
    return;
  }
  const value = encryptSecret(trimmed);
  await db.setting.upsert({
    where: { key: COZE_GITHUB_TOKEN_KEY },
    create: { key: COZE_GITHUB_TOKEN_KEY, value, updatedBy: actor?.id ?? null },
    update: { value, updatedBy: actor?.id ?? null },
  });
}

/**
 * The token a Coze download written for `actor` carries: the stored one for those who manage endpoints (who set it),
 * "" for everyone else, anonymous readers included, so the package says EMPTY as the official does without one.
 */
export async function cozeGithubTokenFor(db: Database, actor: SessionUser | null): Promise<string> {
  if (!isAllowed(actor, "manageEndpoints")) return "";
  const row = await db.setting.findUnique({ where: { key: COZE_GITHUB_TOKEN_KEY } });
  return row ? decryptSecret(row.value) : "";
}
