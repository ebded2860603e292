import type { Metadata } from "next";
import Link from "next/link";
import { DefaultBenchmarkButton } from "@/components/leaderboard/default-benchmark-button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { tableStyles } from "@/components/ui/styles";
import { benchmarkHref, benchmarkParam, orderBenchmarks } from "@/lib/leaderboard/benchmarks";
import { selectBenchmark } from "@/lib/server/data/leaderboard";
import { database } from "@/lib/server/db";
import { requireSignedInPermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Default benchmark" };
export const dynamic = "force-dynamic";

export default async function DefaultBenchmarkPage() {
  const user = await requireSignedInPermission("administer", "/settings/benchmark");
  const selection = await selectBenchmark(database(), user, null);
  const choices = orderBenchmarks(selection.choices);
  return (
    <div>
      <PageHeader
        title="Default benchmark"
        description="Links that name no benchmark open on this one. While no admin has chosen, it is the first real benchmark imported (demo data only when there is nothing else)."
      />
      {choices.length === 0 ? (
        <EmptyState title="No benchmark yet" action={{ href: "/import", label: "Import a benchmark" }}>
          Import a benchmark first.
        </EmptyState>
      ) : (
        <div className={tableStyles.wrapper}>
          <table className={tableStyles.table}>
            <caption className="sr-only">Benchmarks and which one is the default</caption>
            <thead>
              <tr>
                <th scope="col" className={tableStyles.th}>Benchmark</th>
                <th scope="col" className={tableStyles.th}>Version</th>
                <th scope="col" className={tableStyles.th}>Turns</th>
                <th scope="col" className={tableStyles.th}>Runs</th>
                <th scope="col" className={tableStyles.th}>Default</th>
              </tr>
            </thead>
            <tbody>
              {choices.map((choice) => (
                <tr key={choice.id} data-testid="benchmark-row">
                  <td className={tableStyles.td}>
                    <Link href={benchmarkHref("/", benchmarkParam(choice, choices))} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                      {choice.name}
                    </Link>
                    {choice.demo ? <span className="ml-2 text-xs text-slate-600 dark:text-slate-400">demo data</span> : null}
                  </td>
                  <td className={tableStyles.td}>{choice.version}</td>
                  <td className={tableStyles.td}>{choice.turnCount}</td>
                  <td className={tableStyles.td}>{choice.runCount}</td>
                  <td className={tableStyles.td}>
                    {selection.defaultId === choice.id ? <strong>Default</strong> : <DefaultBenchmarkButton benchmarkId={choice.id} name={choice.name} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
