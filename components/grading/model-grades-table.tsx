// The leaderboard's optional grade columns: per model (and per run), the rubric's pass rate, weighted mean (sd) and
// grade counts, ordered by the scoring guide's §5.2 tie-breakers with the deciding rule shown beside a placed row.
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { tableStyles } from "@/components/ui/styles";
import { GRADES } from "@/lib/grading/grade";
import type { OrderedStanding } from "@/lib/grading/standings";
import type { GradeStandings } from "@/lib/server/grading";
import { gradeTone } from "./format";

function StandingRows({ rows, href, testId, caption }: { rows: OrderedStanding[]; href: (row: OrderedStanding) => string; testId: string; caption: string }) {
  return (
    <div className={tableStyles.wrapper}>
      <table className={tableStyles.table} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className={tableStyles.th}>#</th>
            <th scope="col" className={tableStyles.th}>{testId === "leaderboard-grades" ? "Model" : "Run"}</th>
            <th scope="col" className={tableStyles.th}>Responses</th>
            <th scope="col" className={tableStyles.th}>Grade pass rate</th>
            <th scope="col" className={tableStyles.th}>Weighted mean (sd)</th>
            {GRADES.map((grade) => (
              <th key={grade} scope="col" className={tableStyles.th}>
                <Badge tone={gradeTone(grade)}>{grade}</Badge>
              </th>
            ))}
            <th scope="col" className={tableStyles.th}>Order</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => {
            const { bundle } = row.candidate;
            return (
              <tr key={row.candidate.id} data-row-id={row.candidate.id}>
                <td className={tableStyles.tdNumber}>{row.position}</td>
                <th scope="row" className={`${tableStyles.td} font-medium`}>
                  <Link href={href(row)} className="text-brand-600 hover:underline dark:text-brand-500">{row.candidate.label}</Link>
                </th>
                <td className={tableStyles.tdNumber}>{bundle.count}</td>
                <td className={tableStyles.tdNumber}>{bundle.count === 0 ? "—" : `${((bundle.passed / bundle.count) * 100).toFixed(1)}%`}</td>
                <td className={tableStyles.tdNumber}>
                  {bundle.weightedMean?.toFixed(2) ?? "—"} <span className="text-xs text-slate-500">({bundle.weightedSd?.toFixed(2) ?? "—"})</span>
                </td>
                {GRADES.map((grade) => (
                  <td key={grade} className={tableStyles.tdNumber}>{bundle.grades[grade] ?? 0}</td>
                ))}
                <td className="px-3 py-2 text-xs text-slate-600 dark:text-slate-400" data-testid="deciding-rule" title={row.explanation ?? undefined}>
                  {row.decidingRule ?? ""}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

export function ModelGradesTable({ standings, rubric }: { standings: GradeStandings; rubric: { id: string; version: number } }) {
  return (
    <section aria-labelledby="grades-title" className="mt-8 space-y-2">
      <h2 id="grades-title" className="text-lg font-semibold">
        Grades <span className="text-sm font-normal text-slate-500">(scoring guide, rubric <span className="font-mono">{rubric.id}</span> v{rubric.version}, all runs pooled per model)</span>
      </h2>
      {standings.models.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No runs to grade on this benchmark.</p>
      ) : (
        <>
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Ordered by weighted mean; rows within 1.0 point of the row above are ordered by the guide&apos;s tie-breakers (fewer hard-gate failures per run, then higher
            objective correctness, safety/validation, lower p95 latency and cost), and the Order column names the rule that decided.
          </p>
          <StandingRows rows={standings.models} href={(row) => `/models/${encodeURIComponent(row.candidate.id)}`} testId="leaderboard-grades" caption="Grades per model" />
          <h3 className="pt-4 text-base font-semibold">Runs by grade</h3>
          <StandingRows rows={standings.runs} href={(row) => `/runs/${encodeURIComponent(row.candidate.id)}/report`} testId="leaderboard-run-grades" caption="Grades per run" />
        </>
      )}
    </section>
  );
}
