import "server-only";
// Which turns of a run go to Dify: those its own pass judge passed. A recorded run's own judge is its recorded
// verdicts (PassResult.valid holds them); a generated run's is its evaluation's judge (or panel) when that is an LLM;
// a run whose pass stage an LLM judge answered is gated by that judge, never by the rule judge; only a run no LLM
// judge has seen falls back to the stored verdict (the rule judge, labelled so). The panel rule is applied by
// passStageVerdicts, the one place pass-stage panels are decided.
import { RECORDED_JUDGE_ID, RULE_JUDGE_ID } from "@/lib/import/plan";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { passStageVerdicts, type StoredPassVerdict } from "../evaluations/pass-stage-verdicts";
import { parseEvaluationJudge } from "../evaluations/types";
import type { SessionUser } from "../session";

/** "stored": PassResult.valid; "llm": the step 1_4 verdicts of these endpoints (a panel when several). */
export type PassGate = { kind: "stored" } | { kind: "llm"; endpointIds: string[] };

export type PassGateChoice = { ok: true; gate: PassGate; describe: string } | { ok: false; message: string };

export interface PassJudgeCandidate {
  endpointId: string;
  label: string;
  /** Turns of the run it judged. */
  turns: number;
}

/** The endpoints whose step 1_4 verdicts this run has, most turns first. */
export async function passJudgeCandidates(db: Database, runId: string): Promise<{ candidates: PassJudgeCandidate[]; orphans: string[] }> {
  const rows = await db.judgeVerdict.findMany({
    where: { stage: "pass", casePosition: 0, response: { runId }, judge: { notIn: [RECORDED_JUDGE_ID, RULE_JUDGE_ID] } },
    distinct: ["judge", "responseId"],
    select: { judge: true },
  });
  const turnsByJudge = new Map<string, number>();
  for (const row of rows) turnsByJudge.set(row.judge, (turnsByJudge.get(row.judge) ?? 0) + 1);
  if (turnsByJudge.size === 0) return { candidates: [], orphans: [] };
  const endpoints = await db.modelEndpoint.findMany({ where: { label: { in: [...turnsByJudge.keys()] } }, select: { id: true, label: true } });
  const candidates = endpoints.map((endpoint) => ({ endpointId: endpoint.id, label: endpoint.label, turns: turnsByJudge.get(endpoint.label) ?? 0 }));
  candidates.sort((a, b) => b.turns - a.turns || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  const known = new Set(endpoints.map((endpoint) => endpoint.label));
  return { candidates, orphans: [...turnsByJudge.keys()].filter((judge) => !known.has(judge)) };
}

/**
 * The gate of a run's Dify execution. `chosenEndpointId` picks among several LLM judges of an imported run; a choice
 * is refused (one sentence) when it is needed and missing, or names no judge of this run.
 */
export async function passGateOfRun(db: Database, runId: string, chosenEndpointId?: string | null): Promise<PassGateChoice> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { origin: true, evaluation: { select: { judge: true } } } });
  if (!run) return { ok: false, message: "No such run." };
  if (run.origin === "recorded") return { ok: true, gate: { kind: "stored" }, describe: "the recorded verdicts" };
  const evaluationJudge = run.evaluation ? parseEvaluationJudge(run.evaluation.judge) : null;
  if (evaluationJudge?.kind === "llm") {
    const endpoints = await db.modelEndpoint.findMany({ where: { id: { in: evaluationJudge.endpointIds } }, select: { label: true } });
    if (endpoints.length !== new Set(evaluationJudge.endpointIds).size) return { ok: false, message: "The evaluation's pass judge endpoint was deleted, so which turns passed cannot be decided; execute a run whose judge still exists." };
    return { ok: true, gate: { kind: "llm", endpointIds: evaluationJudge.endpointIds }, describe: `the evaluation's judge (${endpoints.map((endpoint) => endpoint.label).join(", ")})` };
  }
  const { candidates, orphans } = await passJudgeCandidates(db, runId);
  if (chosenEndpointId) {
    const chosen = candidates.find((candidate) => candidate.endpointId === chosenEndpointId);
    if (!chosen) return { ok: false, message: "The chosen pass judge has no verdicts on this run." };
    return { ok: true, gate: { kind: "llm", endpointIds: [chosen.endpointId] }, describe: `the LLM judge ${chosen.label}` };
  }
  if (candidates.length === 1) return { ok: true, gate: { kind: "llm", endpointIds: [candidates[0]!.endpointId] }, describe: `the LLM judge ${candidates[0]!.label}` };
  if (candidates.length > 1) return { ok: false, message: `This run's pass stage was judged by ${candidates.map((candidate) => candidate.label).join(", ")}; choose which judge decides the turns sent to Dify.` };
  if (orphans.length > 0) return { ok: false, message: `This run's pass stage was judged by ${orphans.join(", ")}, whose endpoint no longer exists; judge it again with an existing endpoint first.` };
  return { ok: true, gate: { kind: "stored" }, describe: "the rule judge (not the official LLM judge)" };
}

/**
 * The turns an LLM gate cannot decide: they reach step 1_4 but a member of the judge has no verdict on them, so only
 * the rule judge would speak for them. Empty for the stored gate.
 */
export async function turnsGateHasNotJudged(db: Database, gate: PassGate, responses: readonly StoredPassVerdict[]): Promise<string[]> {
  if (gate.kind !== "llm") return [];
  const reaching = responses.filter((response) => response.passResult && response.passResult.officialFailStep === null && response.passResult.failStep !== "step_1_5").map((response) => response.id);
  if (reaching.length === 0) return [];
  const members = (await db.modelEndpoint.findMany({ where: { id: { in: gate.endpointIds } }, select: { label: true } })).map((endpoint) => endpoint.label);
  const judged = new Map<string, Set<string>>();
  for (let start = 0; start < reaching.length; start += 500) {
    const rows = await db.judgeVerdict.findMany({
      where: { responseId: { in: reaching.slice(start, start + 500) }, stage: "pass", casePosition: 0, judge: { in: members } },
      distinct: ["responseId", "judge"],
      select: { responseId: true, judge: true },
    });
    for (const row of rows) judged.set(row.responseId, (judged.get(row.responseId) ?? new Set()).add(row.judge));
  }
  return reaching.filter((id) => members.length === 0 || members.some((member) => !judged.get(id)?.has(member)));
}

/** Whether each turn passed the gate: passStageVerdicts for an LLM gate, the stored verdict otherwise. */
export async function turnsPassingGate(db: Database, gate: PassGate, responses: readonly StoredPassVerdict[]): Promise<Map<string, boolean>> {
  const verdicts = await passStageVerdicts(db, gate.kind === "llm" ? gate : null, responses);
  return new Map(responses.map((response) => [response.id, verdicts.get(response.id)?.valid ?? false]));
}

/** For the run page (researchers): the LLM pass judges to choose from, and which judge decides the turns, in words. */
export async function describeRunPassGate(db: Database, actor: SessionUser, runId: string): Promise<{ candidates: PassJudgeCandidate[]; describe: string }> {
  assertAllowed(actor, "runJobs");
  const [{ candidates }, gate] = await Promise.all([passJudgeCandidates(db, runId), passGateOfRun(db, runId)]);
  if (gate.ok) return { candidates, describe: gate.describe };
  return { candidates, describe: candidates.length > 1 ? "the pass judge chosen below" : `no judge yet (${gate.message})` };
}
