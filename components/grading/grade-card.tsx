// The scoring guide's grade card for one response: gates with reasons, each criterion raw → normalised → adjusted
// with its formula, the weighted score, the grade and why it landed there. Takes prepared data only.
import { Badge } from "@/components/ui/badge";
import { cardStyles, tableStyles } from "@/components/ui/styles";
import { FORMULA_DESCRIPTIONS } from "@/lib/grading/formulas";
import type { GradeResult } from "@/lib/grading/grade";
import { formatNorm, formatRaw, gradeTone } from "./format";

export interface GradeCardProps {
  result: GradeResult;
  rubric: { id: string; version: number; title: string };
  judges: { judge: string; promptFingerprint: string | null }[];
  stored: { gradedAt: Date; sameRubricFile: boolean } | null;
}

export function GradeCard({ result, rubric, judges, stored }: GradeCardProps) {
  return (
    <section aria-labelledby="grade-title" className={`${cardStyles} space-y-4`} data-testid="grade-card">
      <div className="flex flex-wrap items-baseline justify-between gap-3">
        <h2 id="grade-title" className="text-lg font-semibold">
          Grade{" "}
          <span className="ml-1 rounded-md px-2 text-2xl" data-testid="grade-letter">
            <Badge tone={gradeTone(result.grade)}>{result.grade}</Badge>
          </span>
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          Weighted score <strong className="tabular-nums" data-testid="grade-weighted">{result.weighted_100.toFixed(2)}</strong> / 100 ·{" "}
          <Badge tone={result.passed ? "good" : "bad"}>{result.passed ? "passed" : "not passed"}</Badge> · pass threshold {result.pass_threshold} · rubric{" "}
          <span className="font-mono">{rubric.id}</span> v{rubric.version}
        </p>
      </div>
      <p className="text-sm" data-testid="grade-explanation">
        {result.explanation}
      </p>

      <div>
        <h3 className="mb-1 text-sm font-semibold">Hard gates</h3>
        {result.gates.length === 0 ? (
          <p className="text-sm text-slate-500">This rubric has no hard gates.</p>
        ) : (
          <ul className="space-y-1 text-sm" data-testid="grade-gates">
            {result.gates.map((gate) => (
              <li key={gate.name} className="flex flex-wrap items-baseline gap-2">
                <Badge tone={gate.passed === null ? "neutral" : gate.passed ? "good" : "bad"}>{gate.passed === null ? "not reached" : gate.passed ? "pass" : "fail"}</Badge>
                <span className="font-mono">{gate.name}</span>
                {gate.reason ? <span className="text-slate-600 dark:text-slate-400">{gate.reason}</span> : null}
              </li>
            ))}
          </ul>
        )}
      </div>

      <div>
        <h3 className="mb-1 text-sm font-semibold">Placement checks for an A (§5.2)</h3>
        <ul className="space-y-1 text-sm" data-testid="grade-placement">
          {result.placement.map((check) => (
            <li key={check.check} className="flex flex-wrap items-baseline gap-2">
              <Badge tone={check.holds === null ? "neutral" : check.holds ? "good" : "bad"}>{check.holds === null ? "not measured" : check.holds ? "holds" : "fails"}</Badge>
              <span>{check.check === "floor_margin" ? "Floors cleared by 0.10" : "Low judge disagreement"}</span>
              <span className="text-slate-600 dark:text-slate-400">{check.detail}</span>
            </li>
          ))}
        </ul>
      </div>

      <div className={tableStyles.wrapper}>
        <table className={tableStyles.table} data-testid="grade-criteria">
          <caption className="sr-only">Criteria: raw value, normalised, adjusted for sample size, with formula and weight</caption>
          <thead>
            <tr>
              <th scope="col" className={tableStyles.th}>Criterion</th>
              <th scope="col" className={tableStyles.th}>Formula</th>
              <th scope="col" className={tableStyles.th}>Raw</th>
              <th scope="col" className={tableStyles.th}>Normalised</th>
              <th scope="col" className={tableStyles.th}>Adjusted</th>
              <th scope="col" className={tableStyles.th}>Weight</th>
              <th scope="col" className={tableStyles.th}>Floor</th>
              <th scope="col" className={tableStyles.th}>Evidence</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {result.criteria.map((criterion) => (
              <tr key={criterion.name} className={criterion.applicable ? "" : "text-slate-500"}>
                <th scope="row" className={`${tableStyles.td} font-mono font-normal`}>{criterion.name}</th>
                <td className={tableStyles.td}>
                  <abbr title={FORMULA_DESCRIPTIONS[criterion.formula]} className="font-mono no-underline">{criterion.formula}</abbr>
                  {criterion.params ? <span className="ml-1 text-xs text-slate-500">SLO {criterion.params.slo_good}/{criterion.params.slo_bad}</span> : null}
                </td>
                <td className={tableStyles.tdNumber}>{formatRaw(criterion.raw)}</td>
                <td className={tableStyles.tdNumber}>{formatNorm(criterion.norm)}</td>
                <td className={tableStyles.tdNumber}>{formatNorm(criterion.adjusted_norm)}</td>
                <td className={tableStyles.tdNumber}>{criterion.weight}</td>
                <td className={tableStyles.td}>
                  {criterion.critical_floor === null ? "—" : (
                    <>
                      {formatNorm(criterion.critical_floor)} {criterion.applicable ? <Badge tone={criterion.floor_failed ? "bad" : "good"}>{criterion.floor_failed ? "missed" : "met"}</Badge> : null}
                    </>
                  )}
                </td>
                <td className="px-3 py-2 align-top text-xs">{criterion.applicable ? (criterion.evidence ?? "") : `Not applicable: ${criterion.notApplicable}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="text-xs text-slate-500">
        Adjusted = (n·norm + 20·0.5)/(n + 20) with n = {result.sample_count} sample{result.sample_count === 1 ? "" : "s"}: the small-sample value promotion decisions use.
        {judges.length > 0 ? ` Judge${judges.length > 1 ? "s" : ""} used: ${judges.map((judge) => `${judge.judge}${judge.promptFingerprint ? ` (prompt ${judge.promptFingerprint.slice(0, 12)})` : ""}`).join(", ")}.` : ""}{" "}
        {stored ? `Stored ${stored.gradedAt.toISOString().slice(0, 16).replace("T", " ")} UTC${stored.sameRubricFile ? "" : " with a different rubric file of this version"}.` : "Computed from the stored verdicts; not yet stored (npm run grade)."}
      </p>
    </section>
  );
}
