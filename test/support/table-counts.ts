// Row counts of every application table: equal counts (and equal vote rows where it matters) before and after a
// refused operation show that it changed nothing.
import type { Database } from "@/lib/server/db";

export async function tableCounts(db: Database): Promise<Record<string, number>> {
  const tables = await db.$queryRawUnsafe<{ name: string }[]>(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations' ORDER BY name",
  );
  const counts: Record<string, number> = {};
  for (const { name } of tables) {
    const rows = await db.$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT COUNT(*) AS n FROM "${name}"`);
    counts[name] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}
