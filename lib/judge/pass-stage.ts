// The pass-stage verdict of a turn under its run's own LLM judge (or panel), as the official pipeline decides it:
// a turn failing steps 1_1-1_3 keeps that step, a turn Dify refused keeps step_1_5, and otherwise the panel rule
// decides step 1_4. Pure; the stored verdicts (applyOwnJudge) and the bundle check share it.
import { panelVerdict } from "@/lib/judge/majority";

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

/** Whether a stored turn reaches step 1_4: steps 1_1–1_3 pass and Dify did not refuse it (step 1_5 comes after the judge). */
export function reachesPassJudge(stored: { officialFailStep: string | null; failStep: string | null }): boolean {
  return stored.officialFailStep === null && stored.failStep !== "step_1_5";
}

/** The verdict with the judge's panel; null when the turn does not reach it or a member has not judged it yet. */
export function ownJudgePassVerdict(stored: StoredPass, members: readonly string[], samplesByMember: ReadonlyMap<string, readonly (boolean | null)[]>): PassStageVerdict | null {
  if (members.length === 0 || !reachesPassJudge(stored)) return null;
  const verdict = panelVerdict(members, samplesByMember);
  return verdict === null ? null : { valid: verdict, failStep: verdict ? null : "step_1_4" };
}

/** The verdict a turn carries: the panel's where it decides, else the stored one. */
export function evaluationPassVerdict(stored: StoredPass, members: readonly string[], samplesByMember: ReadonlyMap<string, readonly (boolean | null)[]>): PassStageVerdict {
  return ownJudgePassVerdict(stored, members, samplesByMember) ?? { valid: stored.valid, failStep: stored.failStep };
}
