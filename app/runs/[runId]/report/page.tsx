import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { CriterionDistributionChart } from "@/components/grading/criterion-chart";
import { gradeTone } from "@/components/grading/format";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { cardStyles } from "@/components/ui/styles";
import { GRADES } from "@/lib/grading/grade";
import { reportBundle } from "@/lib/grading/report";
import { database } from "@/lib/server/db";
import { EvidenceGradingForm } from "@/components/grading/evidence-grading-form";
import { can } from "@/lib/auth/roles";
import { gradeStoredRun, listShippedRubrics, loadDefaultRubric } from "@/lib/server/grading";
import { checkAccess, requirePagePermission, type SessionUser } from "@/lib/server/session";

const loadReport = cache(async (actor: SessionUser | null, runId: string) => {
  const rubric = await loadDefaultRubric();
  if (!rubric.ok) return { error: rubric.issues.join("; ") } as const;
  const graded = await gradeStoredRun(database(), actor, runId, rubric.value);
  if (graded === null) return null;
  if (!graded.ok) return { error: graded.issues.join("; ") } as const;
  return { graded: graded.value, bundle: reportBundle(graded.value.responses.map((response) => response.result)) } as const;
});

export async function generateMetadata({ params }: PageProps<"/runs/[runId]/report">): Promise<Metadata> {
  const { runId } = await params;
  const access = await checkAccess("read");
  if (!access.allowed) return { title: "Run report" };
  const loaded = await loadReport(access.user, runId);
  return { title: loaded && !("error" in loaded) ? `Report · ${loaded.graded.run.modelDisplayName} · ${loaded.graded.run.label}` : "Run report" };
}

const pct = (value: number | null) => (value === null ? "—" : `${(value * 100).toFixed(1)}%`);

export default async function RunReportPage({ params }: PageProps<"/runs/[runId]/report">) {
  const { runId } = await params;
  const user = await requirePagePermission("read", `/runs/${encodeURIComponent(runId)}/report`);
  const loaded = await loadReport(user, runId);
  if (!loaded) notFound();
  if ("error" in loaded) return <EmptyState title="This run cannot be graded">{loaded.error}</EmptyState>;
  const { graded, bundle } = loaded;
  const binLabels = (bundle.criteria[0]?.bins ?? []).map((bin) => `${bin.from.toFixed(1)}–${bin.to.toFixed(1)}`);
  const chartRows = bundle.criteria
    .filter((criterion) => criterion.applicable > 0)
    .map((criterion) => Object.fromEntries([["criterion", criterion.name], ...criterion.bins.map((bin, index) => [binLabels[index]!, bin.count])]) as { criterion: string } & Record<string, number>);

  return (
    <div className="space-y-6">
      <nav aria-label="Breadcrumb" className="text-sm text-slate-600 dark:text-slate-400">
        <Link href="/runs" className="hover:underline">Runs</Link> ›{" "}
        <Link href={`/runs/${runId}`} className="hover:underline">{graded.run.modelDisplayName} · {graded.run.label}</Link> › Report
      </nav>
      <PageHeader
        title={`Run report · ${graded.run.modelDisplayName}`}
        description={
          <>
            The scoring guide&apos;s minimum reporting bundle for {graded.run.label}, graded with <span className="font-mono">{graded.rubric.id}</span> v{graded.rubric.version} ({graded.rubric.title}).
          </>
        }
        actions={
          <Link href={`/promote?candidate=${encodeURIComponent(runId)}`} className="rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-800">
            Promotion check with this run
          </Link>
        }
      />
      {bundle.count === 0 ? (
        <EmptyState title="This run has no responses">Import a run with responses to see its report.</EmptyState>
      ) : (
        <>
          <dl className="grid gap-3 sm:grid-cols-4" data-testid="report-summary">
            <div className={cardStyles}>
              <dt className="text-xs uppercase text-slate-500" title="Responses that pass the rubric, not the benchmark's pass stage">Grade pass rate</dt>
              <dd className="text-2xl font-semibold tabular-nums" data-testid="report-pass-rate">{pct(bundle.passRate)}</dd>
              <dd className="text-xs text-slate-500">{bundle.passed} of {bundle.count} responses</dd>
            </div>
            <div className={cardStyles}>
              <dt className="text-xs uppercase text-slate-500">Weighted score mean</dt>
              <dd className="text-2xl font-semibold tabular-nums" data-testid="report-weighted-mean">{bundle.weightedMean?.toFixed(2) ?? "—"}</dd>
              <dd className="text-xs text-slate-500">standard deviation {bundle.weightedSd?.toFixed(2) ?? "—"}</dd>
            </div>
            <div className={`${cardStyles} sm:col-span-2`}>
              <dt className="text-xs uppercase text-slate-500">Grades</dt>
              <dd className="mt-1 flex flex-wrap gap-2" data-testid="report-grades">
                {GRADES.map((grade) => (
                  <span key={grade} className="tabular-nums">
                    <Badge tone={gradeTone(grade)}>{grade}</Badge> {bundle.grades[grade]}
                  </span>
                ))}
              </dd>
            </div>
          </dl>

          <section aria-labelledby="gates-title" className="space-y-2">
            <h2 id="gates-title" className="text-lg font-semibold">Hard-gate failure rate by gate</h2>
            <DataTable
              caption="Hard-gate failures per gate"
              testId="report-gates"
              headers={["Gate", "Failed", "Reached", "Failure rate (of all responses)"]}
              rowHeader
              numeric={[1, 2, 3]}
              columnClasses={{ 0: "font-mono font-normal" }}
              rows={bundle.gateFailureRates.map((gate) => ({ key: gate.gate, cells: [gate.gate, gate.failed, gate.evaluated, pct(gate.rate)] }))}
            />
          </section>

          <section aria-labelledby="criteria-title" className="space-y-2">
            <h2 id="criteria-title" className="text-lg font-semibold">Per-criterion distribution</h2>
            {chartRows.length > 0 ? <CriterionDistributionChart rows={chartRows} bins={binLabels} /> : null}
            <DataTable
              caption="Responses per normalised-value bin for each criterion"
              testId="report-criteria"
              region="Per-criterion distribution table"
              headers={["Criterion", "Formula", "Mean norm", ...binLabels, "Floor missed", "Not applicable"]}
              rowHeader
              numeric={[2, ...binLabels.map((_, index) => 3 + index), 3 + binLabels.length]}
              columnClasses={{ 0: "font-mono font-normal", 1: "font-mono" }}
              rows={bundle.criteria.map((criterion) => ({
                key: criterion.name,
                cells: [
                  criterion.name,
                  criterion.formula,
                  criterion.mean?.toFixed(3) ?? "—",
                  ...criterion.bins.map((bin) => bin.count),
                  criterion.floorFailures,
                  criterion.notApplicable > 0 ? `${criterion.notApplicable} (${criterion.notApplicableReason ?? "no value"})` : "0",
                ],
              }))}
            />
          </section>

          {can(user?.role, "import") ? (
            <EvidenceGradingForm
              runId={runId}
              rubrics={(await listShippedRubrics()).flatMap((entry) => (entry.rubric ? [{ file: entry.file, title: entry.rubric.rubric.title }] : []))}
            />
          ) : null}

          <section aria-labelledby="reasons-title" className="space-y-2">
            <h2 id="reasons-title" className="text-lg font-semibold">Top failure reasons</h2>
            {bundle.topFailureReasons.length === 0 ? (
              <p className="text-sm text-slate-600 dark:text-slate-400">Every response passed.</p>
            ) : (
              <ol className="space-y-1 text-sm" data-testid="report-reasons">
                {bundle.topFailureReasons.map((reason) => (
                  <li key={reason.reason} className="flex gap-3">
                    <span className="w-10 text-right tabular-nums">{reason.count}</span>
                    <span className="font-mono">{reason.reason}</span>
                  </li>
                ))}
              </ol>
            )}
          </section>
        </>
      )}
    </div>
  );
}
