// The leaderboard's optional grade columns: per model, the rubric's pass rate, weighted mean (sd) and grade counts.
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { tableStyles } from "@/components/ui/styles";
import { GRADES } from "@/lib/grading/grade";
import type { ModelGradeRow } from "@/lib/server/grading";
import { gradeTone } from "./format";

export function ModelGradesTable({ rows, rubric }: { rows: ModelGradeRow[]; rubric: { id: string; version: number } }) {
  return (
    <section aria-labelledby="grades-title" className="mt-8 space-y-2">
      <h2 id="grades-title" className="text-lg font-semibold">
        Grades <span className="text-sm font-normal text-slate-500">(scoring guide, rubric <span className="font-mono">{rubric.id}</span> v{rubric.version}, all runs pooled per model)</span>
      </h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600 dark:text-slate-400">No runs to grade on this benchmark.</p>
      ) : (
        <div className={tableStyles.wrapper}>
          <table className={tableStyles.table} data-testid="leaderboard-grades">
            <caption className="sr-only">Grades per model</caption>
            <thead>
              <tr>
                <th scope="col" className={tableStyles.th}>Model</th>
                <th scope="col" className={tableStyles.th}>Responses</th>
                <th scope="col" className={tableStyles.th}>Grade pass rate</th>
                <th scope="col" className={tableStyles.th}>Weighted mean (sd)</th>
                {GRADES.map((grade) => (
                  <th key={grade} scope="col" className={tableStyles.th}>
                    <Badge tone={gradeTone(grade)}>{grade}</Badge>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {rows.map((row) => (
                <tr key={row.model}>
                  <th scope="row" className={`${tableStyles.td} font-medium`}>
                    <Link href={`/models/${encodeURIComponent(row.model)}`} className="text-brand-600 hover:underline dark:text-brand-500">{row.displayName}</Link>
                  </th>
                  <td className={tableStyles.tdNumber}>{row.responses}</td>
                  <td className={tableStyles.tdNumber}>{row.responses === 0 ? "—" : `${((row.passed / row.responses) * 100).toFixed(1)}%`}</td>
                  <td className={tableStyles.tdNumber}>
                    {row.weightedMean?.toFixed(2) ?? "—"} <span className="text-xs text-slate-500">({row.weightedSd?.toFixed(2) ?? "—"})</span>
                  </td>
                  {GRADES.map((grade) => (
                    <td key={grade} className={tableStyles.tdNumber}>{row.grades[grade] ?? 0}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
