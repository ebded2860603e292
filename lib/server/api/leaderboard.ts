import "server-only";
// The leaderboard through the API: the same calls `npm run export -- leaderboard --format json` makes (getExportRates,
// leaderboardExportRows, the export columns), so the API answers the rows the CLI prints, each naming its configuration
// and its runs' own judge.
import { leaderboardColumns, leaderboardExportRows, toJsonRows, type CellValue } from "@/lib/leaderboard/export";
import type { Database } from "../db";
import { getExportRates } from "../data/leaderboard";
import type { SessionUser } from "../session";
import { findBenchmarkByReference } from "./references";

/** The rows of the benchmark the reference names (the default benchmark without one); null for an unknown reference. */
export async function leaderboardRowsForApi(db: Database, actor: SessionUser | null, reference: string | null): Promise<Record<string, CellValue>[] | null> {
  let benchmarkId: string | null = null;
  if (reference) {
    const found = await findBenchmarkByReference(db, actor, reference);
    if (!found) return null;
    benchmarkId = found.id;
  }
  const { rows } = await getExportRates(db, actor, "measured", benchmarkId);
  return toJsonRows(leaderboardColumns("measured"), leaderboardExportRows(rows));
}
