import "server-only";
// Which turns of a run go to Dify: those its own pass judge passed. The run's own judge's verdict is the one stored on
// PassResult (see pass-stage-verdicts): the recorded verdicts of a recorded run, a generated run's evaluation judge (or
// panel) once it answered, else the rule judge. A run whose own judge is the rule judge but whose pass stage an LLM
// judge answered is gated by that judge (the page asks which when there are several), never by the rule judge; only a
// run no LLM judge has seen is gated by the rule judge, labelled so. Panels are decided by panelVerdict.
import { RECORDED_JUDGE_ID, RULE_JUDGE_ID } from "@/lib/import/plan";
import { panelVerdict } from "@/lib/judge/majority";
import { describeRunJudge, parseRunJudge } from "@/lib/judge/run-judge";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { OWN_JUDGE_SOURCE, passJudgeSamples, passStageVerdict, reachesPassJudge } from "../evaluations/pass-stage-verdicts";
import { parseEvaluationJudge } from "../evaluations/types";
import type { SessionUser } from "../session";

/**
 * "stored": PassResult.valid, the run's own judge's verdict; `llmJudge` when that judge is an LLM (or panel), whose
 * verdict every turn reaching step 1_4 must carry. "llm": these endpoints' step 1_4 verdicts (a panel when several).
 */
export type PassGate = { kind: "stored"; llmJudge?: boolean } | { kind: "llm"; endpointIds: string[] };

export type PassGateChoice = { ok: true; gate: PassGate; describe: string } | { ok: false; message: string };

/** A turn as the gate reads it: its stored pass result, and whether the run's own LLM judge decided it. */
export interface GatedTurn {
  id: string;
  passResult: { valid: boolean; failStep: string | null; officialFailStep: string | null; verdictSource: string } | null;
}

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

/** The gate of a run's own judge when that judge decides without a choice: recorded, or an evaluation's LLM judge. */
async function ownJudgeGate(db: Database, run: { origin: string; judge: string | null; evaluation: { judge: string } | null }): Promise<PassGateChoice | null> {
  if (run.origin === "recorded") return { ok: true, gate: { kind: "stored" }, describe: "the recorded verdicts" };
  const own = parseRunJudge(run.judge, run.origin);
  if (own.kind === "llm") return { ok: true, gate: { kind: "stored", llmJudge: true }, describe: `the run's own judge (${describeRunJudge(own)})` };
  // A generated run made before runs stored their judge: its evaluation's judge, from that judge's verdicts.
  const evaluationJudge = run.judge === null && run.evaluation ? parseEvaluationJudge(run.evaluation.judge) : null;
  if (evaluationJudge?.kind !== "llm") return null;
  const endpoints = await db.modelEndpoint.findMany({ where: { id: { in: evaluationJudge.endpointIds } }, select: { label: true } });
  if (endpoints.length !== new Set(evaluationJudge.endpointIds).size) return { ok: false, message: "The evaluation's pass judge endpoint was deleted, so which turns passed cannot be decided; execute a run whose judge still exists." };
  return { ok: true, gate: { kind: "llm", endpointIds: evaluationJudge.endpointIds }, describe: `the evaluation's judge (${endpoints.map((endpoint) => endpoint.label).join(", ")})` };
}

/** The gate an evaluation's own execution uses (queued without asking): its run's own judge, else the stored verdict. */
export async function evaluationPassGate(db: Database, runId: string): Promise<PassGate> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { origin: true, judge: true, evaluation: { select: { judge: true } } } });
  const own = run ? await ownJudgeGate(db, run) : null;
  return own?.ok ? own.gate : { kind: "stored" };
}

/**
 * The gate of a run's Dify execution. `chosenEndpointId` picks among several LLM judges of a run whose own judge is
 * the rule judge; a choice is refused (one sentence) when it is needed and missing, or names no judge of this run.
 */
export async function passGateOfRun(db: Database, runId: string, chosenEndpointId?: string | null): Promise<PassGateChoice> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { origin: true, judge: true, evaluation: { select: { judge: true } } } });
  if (!run) return { ok: false, message: "No such run." };
  const own = await ownJudgeGate(db, run);
  if (own) return own;
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
 * The turns the gate's LLM judge has not decided: they reach step 1_4 but the run's own LLM judge has stored no
 * verdict on them, or a member of the chosen judge has none, so only the rule judge would speak for them. Empty when
 * the gate is the recorded verdicts or the rule judge.
 */
export async function turnsGateHasNotJudged(db: Database, gate: PassGate, responses: readonly GatedTurn[]): Promise<string[]> {
  const reaching = responses.filter((response) => response.passResult && reachesPassJudge(response.passResult));
  if (gate.kind === "stored") return gate.llmJudge ? reaching.filter((response) => response.passResult?.verdictSource !== OWN_JUDGE_SOURCE).map((response) => response.id) : [];
  if (reaching.length === 0) return [];
  const members = await memberLabels(db, gate.endpointIds);
  const samples = await passJudgeSamples(db, reaching.map((response) => response.id), members);
  return reaching.filter((response) => members.length === 0 || members.some((member) => !samples.get(response.id)?.has(member))).map((response) => response.id);
}

/**
 * Whether each turn passed the gate: the stored verdict, or for an LLM gate steps 1_1–1_3 as stored and step 1_4 by
 * panelVerdict over the judge's samples (a turn it has not judged keeps its stored verdict; callers refuse those).
 */
export async function turnsPassingGate(db: Database, gate: PassGate, responses: readonly GatedTurn[]): Promise<Map<string, boolean>> {
  const passing = new Map(responses.map((response) => [response.id, passStageVerdict(response).valid]));
  if (gate.kind === "stored") return passing;
  const members = await memberLabels(db, gate.endpointIds);
  if (members.length === 0) return passing;
  const reaching = responses.filter((response) => response.passResult && reachesPassJudge(response.passResult)).map((response) => response.id);
  const samples = await passJudgeSamples(db, reaching, members);
  for (const id of reaching) {
    const verdict = panelVerdict(members, samples.get(id) ?? new Map());
    if (verdict !== null) passing.set(id, verdict);
  }
  return passing;
}

const memberLabels = async (db: Database, endpointIds: readonly string[]) => (await db.modelEndpoint.findMany({ where: { id: { in: [...endpointIds] } }, select: { label: true } })).map((endpoint) => endpoint.label);

/** For the run page (researchers): the LLM pass judges to choose from, and which judge decides the turns, in words. */
export async function describeRunPassGate(db: Database, actor: SessionUser, runId: string): Promise<{ candidates: PassJudgeCandidate[]; describe: string }> {
  assertAllowed(actor, "runJobs");
  const [{ candidates }, gate] = await Promise.all([passJudgeCandidates(db, runId), passGateOfRun(db, runId)]);
  if (gate.ok) return { candidates, describe: gate.describe };
  return { candidates, describe: candidates.length > 1 ? "the pass judge chosen below" : `no judge yet (${gate.message})` };
}
