import "server-only";
// The pass-stage verdict of a turn as its evaluation judged it. The stored PassResult carries the verdict scored when
// the turn arrived (steps 1_1–1_3 and the rule judge); an evaluation that chose an LLM judge (or panel) decides step
// 1_4 with that judge instead, as the official pipeline does. Dify execution and the official record downloads both
// read the verdict from here, so the turns sent to Dify are exactly the turns the downloaded files call valid.
import { evaluationPassVerdict, reachesEvaluationJudge, type PassStageVerdict } from "@/lib/judges/pass-stage";
import type { Database } from "../db";
import { parseEvaluationJudge, type EvaluationJudge } from "./types";

export type { PassStageVerdict };

export interface StoredPassVerdict {
  id: string;
  passResult: { valid: boolean; failStep: string | null; officialFailStep: string | null } | null;
}

const storedVerdict = (response: StoredPassVerdict): PassStageVerdict => ({
  valid: response.passResult?.valid ?? false,
  failStep: response.passResult ? response.passResult.failStep : "step_1_1",
});

/** The LLM judge an evaluation chose for a run, or null when the run is not an evaluation's or its judge is not an LLM. */
export async function evaluationLlmJudgeOfRun(db: Database, runId: string): Promise<Extract<EvaluationJudge, { kind: "llm" }> | null> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { evaluation: { select: { judge: true } } } });
  const judge = run?.evaluation ? parseEvaluationJudge(run.evaluation.judge) : null;
  return judge?.kind === "llm" ? judge : null;
}

/**
 * Verdicts by response id. With an LLM judge: a turn failing steps 1_1–1_3 keeps that step; a turn Dify refused
 * keeps step_1_5 (it got there by passing the judge); otherwise each judge's sample majority, then the majority over
 * the panel (ties fail) decides step 1_4. A turn some member has not judged yet keeps its stored verdict.
 */
export async function passStageVerdicts(
  db: Database,
  judge: { endpointIds: readonly string[] } | null,
  responses: readonly StoredPassVerdict[],
): Promise<Map<string, PassStageVerdict>> {
  const verdicts = new Map(responses.map((response) => [response.id, storedVerdict(response)]));
  if (!judge || responses.length === 0) return verdicts;
  const endpoints = await db.modelEndpoint.findMany({ where: { id: { in: [...judge.endpointIds] } }, select: { label: true } });
  const members = endpoints.map((endpoint) => endpoint.label);
  // A judge endpoint deleted since leaves nothing to decide with: the stored verdicts stand.
  if (members.length === 0) return verdicts;
  const reachedJudge = responses.filter((response) => response.passResult && reachesEvaluationJudge(response.passResult));
  const samples = new Map<string, Map<string, boolean[]>>();
  // Chunked so a run of any size stays under the databases' bound-parameter limits.
  for (let start = 0; start < reachedJudge.length; start += 500) {
    const rows = await db.judgeVerdict.findMany({
      where: { responseId: { in: reachedJudge.slice(start, start + 500).map((response) => response.id) }, stage: "pass", casePosition: 0, judge: { in: members } },
      select: { responseId: true, judge: true, verdict: true },
    });
    for (const row of rows) {
      const byJudge = samples.get(row.responseId) ?? new Map<string, boolean[]>();
      byJudge.set(row.judge, [...(byJudge.get(row.judge) ?? []), row.verdict]);
      samples.set(row.responseId, byJudge);
    }
  }
  for (const response of reachedJudge) {
    if (response.passResult) verdicts.set(response.id, evaluationPassVerdict(response.passResult, members, samples.get(response.id) ?? new Map()));
  }
  return verdicts;
}
