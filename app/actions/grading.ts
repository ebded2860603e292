"use server";

import path from "node:path";
import { z } from "zod";
import { toContractResult } from "@/lib/grading/cases";
import { MAX_UPLOADED_EVIDENCE_CHARS } from "@/lib/grading/evidence";
import { reportBundle } from "@/lib/grading/report";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { gradeStoredRun, loadRubricFile, parseEvidenceText, RUBRICS_DIR } from "@/lib/server/grading";

const schema = z.object({
  runId: z.string().min(1).max(100),
  rubricFile: z.string().regex(/^[a-z0-9_]+\.yaml$/, "choose a shipped rubric"),
  evidenceName: z.string().max(300).default("evidence.json"),
  evidence: z.string().max(MAX_UPLOADED_EVIDENCE_CHARS, `evidence files above ${MAX_UPLOADED_EVIDENCE_CHARS} characters: use npm run grade -- --evidence`).optional(),
});

export interface EvidenceGradingView {
  rubric: { id: string; version: number; title: string };
  summary: { count: number; passed: number; weightedMean: number | null; grades: Record<string, number> };
  rows: { turn: string; grade: string; passed: boolean; weighted: number; gateFailures: string[]; missing: string[]; reasons: string[] }[];
}

const grade = authorizedAction("import", schema, async (input, user): Promise<ActionResult<EvidenceGradingView>> => {
  const loaded = await loadRubricFile(path.join(RUBRICS_DIR, input.rubricFile));
  if (!loaded.ok) return { ok: false, error: "invalid", message: loaded.issues.join("; ") };
  let evidence;
  if (input.evidence !== undefined && input.evidence.trim() !== "") {
    const parsed = parseEvidenceText(input.evidenceName, input.evidence);
    if (!parsed.ok) return { ok: false, error: "invalid", message: parsed.issues.slice(0, 20).join("\n") };
    evidence = parsed.value;
  }
  const graded = await gradeStoredRun(database(), user, input.runId, loaded.value, evidence);
  if (graded === null) return { ok: false, error: "invalid", message: "This run does not exist (any more)." };
  if (!graded.ok) return { ok: false, error: "invalid", message: graded.issues.slice(0, 20).join("\n") };
  const results = graded.value.responses.map((response) => response.result);
  const bundle = reportBundle(results);
  return {
    ok: true,
    value: {
      rubric: { id: loaded.value.rubric.rubric_id, version: loaded.value.rubric.version, title: loaded.value.rubric.title },
      summary: { count: bundle.count, passed: bundle.passed, weightedMean: bundle.weightedMean, grades: bundle.grades },
      rows: graded.value.responses.map((response) => {
        const contract = toContractResult(response.result);
        return {
          turn: response.turnKey,
          grade: contract.grade,
          passed: contract.passed,
          weighted: contract.weighted_100,
          gateFailures: contract.gate_failures,
          missing: response.result.criteria.filter((criterion) => criterion.notApplicable?.startsWith("missing:")).map((criterion) => criterion.name),
          reasons: contract.reasons,
        };
      }),
    },
  };
});

/** Grades a stored run with a chosen profile and an uploaded evidence file (researchers and admins); nothing is stored. */
export async function gradeRunWithEvidenceAction(input: z.input<typeof schema>) {
  return grade(input);
}
