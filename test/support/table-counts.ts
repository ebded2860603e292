// Row counts of every application table: equal counts (and equal vote rows where it matters) before and after a
// refused operation show that it changed nothing.
import type { Database } from "@/lib/server/db";
import { applicationTables } from "./database";

export async function tableCounts(db: Database): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of await applicationTables(db)) {
    const rows = await db.$queryRawUnsafe<{ n: number | bigint }[]>(`SELECT COUNT(*) AS "n" FROM "${name}"`);
    counts[name] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}
