import type { Metadata } from "next";
import Link from "next/link";
import { DefaultBenchmarkButton } from "@/components/leaderboard/default-benchmark-button";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
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
        <DataTable
          caption="Benchmarks and which one is the default"
          headers={["Benchmark", "Version", "Turns", "Runs", "Default"]}
          rowTestId="benchmark-row"
          rows={choices.map((choice) => ({
            key: choice.id,
            cells: [
              <>
                <Link href={benchmarkHref("/", benchmarkParam(choice, choices))} className="font-medium text-brand-700 underline underline-offset-2 dark:text-brand-300">
                  {choice.name}
                </Link>
                {choice.demo ? <span className="ml-2 text-xs text-slate-600 dark:text-slate-400">demo data</span> : null}
              </>,
              choice.version,
              choice.turnCount,
              choice.runCount,
              selection.defaultId === choice.id ? <strong key="default">Default</strong> : <DefaultBenchmarkButton key="default" benchmarkId={choice.id} name={choice.name} />,
            ],
          }))}
        />
      )}
    </div>
  );
}
