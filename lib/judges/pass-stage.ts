// The pass-stage verdict of a turn under its evaluation's LLM judge (or panel), as the official pipeline decides it:
// a turn failing steps 1_1-1_3 keeps that step, a turn Dify refused keeps step_1_5, and otherwise the panel's majority
// (each member's sample majority, ties failing) decides step 1_4. Pure; the database reads and the bundle check share it.
import { panelMajority } from "./majority";

export interface StoredPass {
  valid: boolean;
  failStep: string | null;
  /** Our reproduction of steps 1_1-1_3 (null when the turn reaches the judge). */
  officialFailStep: string | null;
}

export interface PassStageVerdict {
  valid: boolean;
  failStep: string | null;
}

/** Whether the evaluation's judge decides the turn: it passed steps 1_1-1_3 and Dify did not refuse its import. */
export function reachesEvaluationJudge(stored: StoredPass): boolean {
  return stored.officialFailStep === null && stored.failStep !== "step_1_5";
}

/** The verdict with the judge's panel; the stored verdict stands when the turn does not reach it or a member has not judged it. */
export function evaluationPassVerdict(stored: StoredPass, members: readonly string[], samplesByJudge: ReadonlyMap<string, readonly boolean[]>): PassStageVerdict {
  const kept = { valid: stored.valid, failStep: stored.failStep };
  if (members.length === 0 || !reachesEvaluationJudge(stored)) return kept;
  const majority = panelMajority(members, samplesByJudge);
  return majority === null ? kept : { valid: majority, failStep: majority ? null : "step_1_4" };
}
