"use client";
// The run report's "grade with another profile" form: a shipped rubric and an optional evidence file (JSON, see
// docs/evidence.md) are sent to the server, which grades the stored run; the result is shown, not stored.
import { useState, useTransition } from "react";
import type { EvidenceGradingView } from "@/app/actions/grading";
import { gradeRunWithEvidenceAction } from "@/app/actions/grading";
import { Badge } from "@/components/ui/badge";
import { DataTable } from "@/components/ui/data-table";
import { buttonStyles, cardStyles, inputStyles, labelStyles } from "@/components/ui/styles";
import { MAX_UPLOADED_EVIDENCE_CHARS } from "@/lib/grading/evidence";
import { GRADES, type Grade } from "@/lib/grading/grade";
import { gradeTone } from "./format";

export function EvidenceGradingForm({ runId, rubrics }: { runId: string; rubrics: { file: string; title: string }[] }) {
  const [result, setResult] = useState<EvidenceGradingView | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  async function submit(form: FormData) {
    const file = form.get("evidence");
    let evidence: string | undefined;
    let evidenceName = "evidence.json";
    if (file instanceof File && file.size > 0) {
      if (file.size > MAX_UPLOADED_EVIDENCE_CHARS) {
        setProblem(`${file.name} is larger than ${Math.round(MAX_UPLOADED_EVIDENCE_CHARS / 1000)} kB: grade it with npm run grade -- --evidence instead.`);
        return;
      }
      evidence = await file.text();
      evidenceName = file.name;
    }
    startTransition(async () => {
      const outcome = await gradeRunWithEvidenceAction({ runId, rubricFile: String(form.get("rubric")), evidenceName, ...(evidence !== undefined ? { evidence } : {}) });
      if (outcome.ok) {
        setResult(outcome.value);
        setProblem(null);
      } else {
        setResult(null);
        setProblem(outcome.fieldErrors ? Object.values(outcome.fieldErrors).join("; ") : outcome.message);
      }
    });
  }

  return (
    <section aria-labelledby="evidence-title" className={`${cardStyles} space-y-3`}>
      <h2 id="evidence-title" className="text-lg font-semibold">Grade with another profile</h2>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        Choose a profile and, for the criteria this run cannot supply by itself (judge or human scores), an evidence file: JSON per response with gates, metrics,
        judge scores, latency and cost, as described in <span className="font-mono">docs/evidence.md</span>. Responses are matched by id or turn key. Nothing is stored.
      </p>
      <form action={submit} className="grid gap-3 sm:grid-cols-3" aria-label="Grade this run with a profile and evidence">
        <label className={labelStyles}>
          Profile
          <select name="rubric" className={inputStyles} defaultValue={rubrics[0]?.file}>
            {rubrics.map((rubric) => (
              <option key={rubric.file} value={rubric.file}>{rubric.title}</option>
            ))}
          </select>
        </label>
        <label className={labelStyles}>
          Evidence file (JSON, optional)
          <input type="file" name="evidence" accept="application/json,.json" className={inputStyles} />
        </label>
        <div className="flex items-end">
          <button type="submit" className={buttonStyles.primary} disabled={pending}>{pending ? "Grading…" : "Grade"}</button>
        </div>
      </form>
      {problem ? (
        <p role="alert" className="whitespace-pre-line text-sm text-red-700 dark:text-red-400" data-testid="evidence-problem">{problem}</p>
      ) : null}
      {result ? (
        <div className="space-y-2" data-testid="evidence-result">
          <p className="text-sm">
            {result.rubric.title} (<span className="font-mono">{result.rubric.id}</span> v{result.rubric.version}): {result.summary.passed} of {result.summary.count} passed, weighted mean{" "}
            {result.summary.weightedMean?.toFixed(2) ?? "—"};{" "}
            {GRADES.map((grade) => (
              <span key={grade} className="mr-2 tabular-nums">
                <Badge tone={gradeTone(grade)}>{grade}</Badge> {result.summary.grades[grade] ?? 0}
              </span>
            ))}
          </p>
          <DataTable
            caption="Grades per response under the chosen profile"
            region="Grades per response under the chosen profile"
            headers={["Turn", "Grade", "Weighted", "Failed gates", "Missing criteria"]}
            rowHeader
            numeric={[2]}
            columnClasses={{ 0: "font-mono font-normal" }}
            rows={result.rows.map((row) => ({
              key: row.turn,
              cells: [row.turn, <Badge key="grade" tone={gradeTone(row.grade as Grade)}>{row.grade}</Badge>, row.weighted.toFixed(2), row.gateFailures.join(", ") || "—", row.missing.join(", ") || "—"],
            }))}
          />
        </div>
      ) : null}
    </section>
  );
}
