import "server-only";
// Instance settings (the Setting table): the default benchmark. Reading needs "read"; changing needs "administer".
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import type { SessionUser } from "../session";

export const DEFAULT_BENCHMARK_KEY = "defaultBenchmark";

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
