import type { Metadata } from "next";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { buttonStyles, cardStyles, inputStyles, labelStyles } from "@/components/ui/styles";
import { DEFAULT_THRESHOLDS, type PromotionThresholds } from "@/lib/grading/promotion";
import { param } from "@/lib/leaderboard/view";
import { database } from "@/lib/server/db";
import { listRuns, type RunListItem } from "@/lib/server/data/runs";
import { checkPromotion, loadDefaultRubric } from "@/lib/server/grading";
import { requirePagePermission } from "@/lib/server/session";

export const metadata: Metadata = { title: "Promotion check" };

const THRESHOLD_FIELDS = [
  { name: "maxGateIncrease", key: "maxGateFailureIncrease", label: "Rule 1: allowed rise of the gate failure rate (0..1)", step: "0.01" },
  { name: "margin", key: "nonInferiorityMargin", label: "Rule 2: non-inferiority margin (points of 100)", step: "0.1" },
  { name: "maxFloorIncrease", key: "maxFloorMissIncrease", label: "Rule 3: allowed rise of a floor miss rate (0..1)", step: "0.01" },
  { name: "maxSevereIncrease", key: "maxSevereIncrease", label: "Rule 4: allowed rise in turns with an error diagnostic", step: "1" },
] as const;

const runOption = (run: RunListItem) => (
  <option key={run.id} value={run.id}>{`${run.model.displayName} · ${run.label} (${run.benchmark.name})`}</option>
);

function RunSelect({ name, label, value, runs }: { name: string; label: string; value: string; runs: RunListItem[] }) {
  return (
    <label className={labelStyles}>
      {label}
      <select name={name} defaultValue={value} className={inputStyles} required>
        <option value="">Choose a run…</option>
        {runs.filter((run) => !run.benchmark.demo).map(runOption)}
        {runs.some((run) => run.benchmark.demo) ? <optgroup label="Demo data">{runs.filter((run) => run.benchmark.demo).map(runOption)}</optgroup> : null}
      </select>
    </label>
  );
}

export default async function PromotePage({ searchParams }: PageProps<"/promote">) {
  const user = await requirePagePermission("read", "/promote");
  const query = await searchParams;
  const candidateId = param(query, "candidate") ?? "";
  const baselineId = param(query, "baseline") ?? "";
  const db = database();
  const runs = await listRuns(db, user);
  const thresholds: Partial<PromotionThresholds> = {};
  const thresholdProblems: string[] = [];
  for (const field of THRESHOLD_FIELDS) {
    const text = param(query, field.name);
    if (text === undefined || text === null || text === "") continue;
    const value = Number(text);
    if (!Number.isFinite(value) || value < 0 || (field.key === "maxSevereIncrease" && !Number.isInteger(value))) thresholdProblems.push(`${field.label}: "${text}" is not a valid value`);
    else thresholds[field.key] = value;
  }
  const rubric = await loadDefaultRubric();
  const report =
    candidateId && baselineId && rubric.ok && thresholdProblems.length === 0 ? await checkPromotion(db, user, candidateId, baselineId, rubric.value, thresholds) : undefined;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Promotion check"
        description="May a candidate run replace a baseline? The scoring guide's four rules on the turns both runs answered, each with its figures; thresholds are adjustable below."
      />
      {runs.length < 2 ? (
        <EmptyState title="Two runs are needed" action={{ href: "/import", label: "Import runs" }}>
          A promotion check compares a candidate run with a baseline run on the same benchmark.
        </EmptyState>
      ) : (
        <form method="get" className={`${cardStyles} grid gap-4 sm:grid-cols-2`} aria-label="Choose the runs to compare">
          <RunSelect name="candidate" label="Candidate run" value={candidateId} runs={runs} />
          <RunSelect name="baseline" label="Baseline run" value={baselineId} runs={runs} />
          {THRESHOLD_FIELDS.map((field) => (
            <label key={field.name} className={labelStyles}>
              {field.label}
              <input type="number" min="0" step={field.step} name={field.name} defaultValue={param(query, field.name) ?? String(DEFAULT_THRESHOLDS[field.key])} className={inputStyles} />
            </label>
          ))}
          <div className="sm:col-span-2">
            <button type="submit" className={buttonStyles.primary}>Check promotion</button>
          </div>
        </form>
      )}
      {!rubric.ok ? <EmptyState title="The rubric could not be read">{rubric.issues.join("; ")}</EmptyState> : null}
      {thresholdProblems.length > 0 ? (
        <EmptyState title="Check the thresholds">{thresholdProblems.join("; ")}</EmptyState>
      ) : report === null ? (
        <EmptyState title="Run not found">One of the chosen runs does not exist (any more). Choose two runs above.</EmptyState>
      ) : report && !report.ok ? (
        <EmptyState title="These runs cannot be compared">{report.issues.join("; ")}</EmptyState>
      ) : report && report.ok ? (
        <section aria-labelledby="verdict-title" className="space-y-4" data-testid="promotion-result">
          <h2 id="verdict-title" className="text-xl font-semibold">
            Verdict:{" "}
            <span data-testid="promotion-verdict">
              <Badge tone={report.value.decision.verdict === "PROMOTE" ? "good" : "bad"}>{report.value.decision.verdict}</Badge>
            </span>
          </h2>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Candidate <Link className="text-brand-600 hover:underline" href={`/runs/${candidateId}/report`}>{report.value.candidate.modelDisplayName} · {report.value.candidate.label}</Link> against baseline{" "}
            <Link className="text-brand-600 hover:underline" href={`/runs/${baselineId}/report`}>{report.value.baseline.modelDisplayName} · {report.value.baseline.label}</Link>, graded with{" "}
            <span className="font-mono">{report.value.rubric.id}</span> v{report.value.rubric.version} on {report.value.decision.sharedTurns} shared turns; weighted mean{" "}
            {report.value.decision.weighted.candidateMean.toFixed(2)} vs {report.value.decision.weighted.baselineMean.toFixed(2)} (adjusted for sample size, as the decision uses:{" "}
            {report.value.decision.weighted.candidateAdjusted.toFixed(2)} vs {report.value.decision.weighted.baselineAdjusted.toFixed(2)}).
            {report.value.decision.candidateOnly.length + report.value.decision.baselineOnly.length > 0
              ? ` Not compared: ${report.value.decision.candidateOnly.length} turn(s) only in the candidate, ${report.value.decision.baselineOnly.length} only in the baseline.`
              : ""}
          </p>
          <p className="text-sm">
            <Link className="text-brand-600 hover:underline" href={`/pairwise?candidate=${encodeURIComponent(candidateId)}&baseline=${encodeURIComponent(baselineId)}`}>
              Compare these runs pairwise with a judge
            </Link>
          </p>
          <p className="text-sm" data-testid="promotion-order">
            By grade: {report.value.order[0]!.candidate.label} above {report.value.order[1]!.candidate.label}
            {report.value.order[1]!.decidingRule ? ` (${report.value.order[1]!.decidingRule}: ${report.value.order[1]!.explanation})` : " (ordered by weighted score)"}.
          </p>
          <DataTable
            caption="The four promotion rules"
            testId="promotion-rules"
            headers={["Rule", "Holds", "Figures"]}
            rowHeader
            wrap={[2]}
            columnClasses={{ 0: "font-normal", 2: "text-sm" }}
            rows={report.value.decision.rules.map((rule) => ({
              key: String(rule.rule),
              cells: [`${rule.rule}. ${rule.name}`, <Badge key="holds" tone={rule.holds ? "good" : "bad"}>{rule.holds ? "holds" : "fails"}</Badge>, rule.summary],
            }))}
          />
        </section>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">Choose a candidate and a baseline run to see the verdict.</p>
      )}
    </div>
  );
}
