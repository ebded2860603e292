import type { Metadata } from "next";
import Link from "next/link";
import { NewComparisonForm } from "@/components/pairwise/new-comparison-form";
import { PairwiseFigures } from "@/components/pairwise/report-figures";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { can } from "@/lib/auth/roles";
import { param } from "@/lib/leaderboard/view";
import { database } from "@/lib/server/db";
import { listRuns } from "@/lib/server/data/runs";
import { listEndpoints } from "@/lib/server/endpoints/endpoints";
import { listComparisons } from "@/lib/server/pairwise";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Pairwise comparisons" };
export const dynamic = "force-dynamic";

export default async function PairwisePage({ searchParams }: PageProps<"/pairwise">) {
  const user = await requirePagePermission("read", "/pairwise");
  const query = await searchParams;
  const db = database();
  const mayStart = can(user?.role, "runJobs");
  const [comparisons, runs, endpoints] = await Promise.all([listComparisons(db, user), mayStart ? listRuns(db, user) : [], mayStart && user ? listEndpoints(db, user) : []]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Pairwise comparisons"
        description="Two runs compared turn by turn by a judge or a panel (scoring guide §8): every comparison is asked in both orders, the first drawn at random per item from a recorded seed; orders that disagree become ties (or are asked once more). The judge reads every instruction of the task up to the compared round."
      />
      {mayStart ? (
        <NewComparisonForm
          runs={runs.map((run) => ({ id: run.id, label: `${run.model.displayName} · ${run.label} (${run.benchmark.name})` }))}
          endpoints={endpoints.map((endpoint) => ({ id: endpoint.id, label: `${endpoint.label} (${endpoint.model})` }))}
          defaults={{ candidate: param(query, "candidate") ?? "", baseline: param(query, "baseline") ?? "", seed: param(query, "seed") ?? "" }}
        />
      ) : null}
      {comparisons.length === 0 ? (
        <EmptyState title="No comparison yet">{mayStart ? "Start one above." : "Researchers and admins start comparisons."}</EmptyState>
      ) : (
        <DataTable
          caption="Pairwise comparisons, newest first"
          testId="pairwise-list"
          region="Pairwise comparisons"
          headers={["Candidate vs baseline", "Judges", "Figures", "Started"]}
          rowHeader
          wrap={[2]}
          columnClasses={{ 0: "font-normal" }}
          rows={comparisons.map((comparison) => ({
            key: comparison.id,
            cells: [
              <Link key="comparison" href={`/pairwise/${comparison.id}`} className="text-brand-600 hover:underline dark:text-brand-500">
                {comparison.candidate.model} · {comparison.candidate.label} vs {comparison.baseline.model} · {comparison.baseline.label}
              </Link>,
              <>
                {comparison.judges.map((judge) => judge.label).join(", ")} ×{comparison.samples}
              </>,
              <PairwiseFigures key="figures" report={comparison.report} />,
              `${comparison.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC`,
            ],
          }))}
        />
      )}
    </div>
  );
}
