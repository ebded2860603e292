// The leaderboard's optional stability columns (?stability=1): for every row pooling two or more runs of one
// configuration, pass@n and pass^n for pass and resolve (lib/stats/stability), linked to the model page's detail.
import Link from "next/link";
import { stabilityCells } from "@/components/runs/stability-section";
import { QueryToggle, type QueryParams } from "@/components/leaderboard/query-toggle";
import { DataTable } from "@/components/ui/data-table";
import { getMeasuredCounts } from "@/lib/server/data/leaderboard";
import { getRowStability } from "@/lib/server/data/stability";
import { database } from "@/lib/server/db";
import type { SessionUser } from "@/lib/server/session";

export async function LeaderboardStability({ user, benchmarkId, benchmarkParam }: { user: SessionUser | null; benchmarkId: string; benchmarkParam: string }) {
  const db = database();
  const counts = await getMeasuredCounts(db, user, benchmarkId);
  const bySeries = new Map<string, { model: string; configuration: string; runIds: string[] }>();
  for (const run of counts.runs) {
    if (run.status !== "complete") continue;
    const entry = bySeries.get(run.series) ?? { model: run.model, configuration: run.configuration, runIds: [] };
    entry.runIds.push(run.id);
    bySeries.set(run.series, entry);
  }
  const rows = (
    await Promise.all(
      [...bySeries].filter(([, entry]) => entry.runIds.length >= 2).map(async ([series, entry]) => ({ series, ...entry, stability: await getRowStability(db, user, entry.runIds) })),
    )
  ).filter((row) => row.stability !== null);
  return (
    <section aria-labelledby="stability-columns" className="mt-8 space-y-2" data-testid="leaderboard-stability">
      <h2 id="stability-columns" className="text-lg font-semibold">
        Stability across runs
      </h2>
      <p className="max-w-4xl text-sm text-slate-600 dark:text-slate-400">
        Rows pooling several runs of one configuration: pass@n counts a turn passed in at least one of the n runs, pass^n in all of them (resolve: the
        same per test case), with 95% Wilson intervals as above. Each model page lists the turns that flip.
      </p>
      <DataTable
        caption="pass@n and pass^n per leaderboard row"
        empty={<p className="text-sm">No row pools two or more complete runs of one configuration on this benchmark.</p>}
        headers={["Model", "Runs", "pass@n", "pass^n", "resolve@n", "resolve^n"]}
        rowHeader
        numeric={[1]}
        columnClasses={{ 0: "text-left" }}
        rowTestId="stability-column-row"
        rows={rows.map((row) => ({
          key: row.series,
          data: { series: row.series },
          cells: [
            <>
              <Link href={`/models/${encodeURIComponent(row.series)}${benchmarkParam ? `?benchmark=${encodeURIComponent(benchmarkParam)}` : ""}`} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                {row.model}
              </Link>
              <span className="block text-xs text-slate-600 dark:text-slate-400">{row.configuration}</span>
            </>,
            row.stability!.runIds.length,
            ...stabilityCells(row.stability!.overall),
          ],
        }))}
      />
    </section>
  );
}

/** Link that switches the stability columns on or off. */
LeaderboardStability.Toggle = function StabilityToggle({ params }: { params: QueryParams }) {
  return <QueryToggle params={params} flag="stability" show="Show stability" hide="Hide stability" testId="stability-toggle" />;
};
