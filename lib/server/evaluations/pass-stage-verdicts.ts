import "server-only";
// The pass-stage verdict of a turn as its run's own judge decides it, stored on PassResult so that every reader (the
// leaderboard, run, evaluation, model and task pages, compare, charts, exports, the official downloads and Dify
// execution) shows the same figure by construction. A generated run whose evaluation chose an LLM judge (or panel)
// has step 1_4 decided by that judge's verdicts here, as they arrive; recorded and rule-judged runs keep theirs.
import { ownJudgePassVerdict, reachesPassJudge, type PassStageVerdict } from "@/lib/judge/pass-stage";
import { parseRunJudge } from "@/lib/judge/run-judge";
import type { QueueTx } from "../jobs/queue";

export { reachesPassJudge, type PassStageVerdict };

export interface StoredPassVerdict {
  id: string;
  passResult: { valid: boolean; failStep: string | null } | null;
}

/** PassResult.verdictSource of a step 1_4 decided by the run's own LLM judge. */
export const OWN_JUDGE_SOURCE = "judge";

/** The stored verdict: the run's own judge's (a response without a pass result failed at reading, step 1_1). */
export function passStageVerdict(response: StoredPassVerdict): PassStageVerdict {
  return { valid: response.passResult?.valid ?? false, failStep: response.passResult ? response.passResult.failStep : "step_1_1" };
}

/** Responses per query: a run of any size stays under the databases' bound-parameter limits. */
const PASS_SAMPLE_CHUNK = 500;

/**
 * The step 1_4 samples the given judges (labels) cast on the given turns, per turn and judge; the first `samples` of
 * each judge when bounded. Callers decide each turn with panelVerdict.
 */
export async function passJudgeSamples(db: QueueTx, responseIds: readonly string[], members: readonly string[], samples?: number): Promise<Map<string, Map<string, boolean[]>>> {
  const byResponse = new Map<string, Map<string, boolean[]>>();
  for (let start = 0; start < responseIds.length; start += PASS_SAMPLE_CHUNK) {
    const rows = await db.judgeVerdict.findMany({
      where: { responseId: { in: responseIds.slice(start, start + PASS_SAMPLE_CHUNK) }, stage: "pass", casePosition: 0, judge: { in: [...members] }, ...(samples !== undefined ? { sampleIndex: { lt: samples } } : {}) },
      select: { responseId: true, judge: true, verdict: true },
    });
    for (const row of rows) {
      const byMember = byResponse.get(row.responseId) ?? new Map<string, boolean[]>();
      byMember.set(row.judge, [...(byMember.get(row.judge) ?? []), row.verdict]);
      byResponse.set(row.responseId, byMember);
    }
  }
  return byResponse;
}

export interface ApplyOptions {
  /** Only these responses (a judge item's); all of the run's when absent. */
  responseIds?: readonly string[];
  /**
   * "every-sample": decide a turn only once every member has all its samples (while judging goes on);
   * "any-sample": decide with what each member answered (once the run's judging has finished; a member with no
   * answer at all leaves the turn undecided, and it keeps the rule judge's verdict, counted as awaiting the judge).
   */
  wait: "every-sample" | "any-sample";
}

/**
 * Decides step 1_4 of a run's turns with the run's own LLM judge (Run.judge) and stores valid, failStep and
 * verdictSource "judge" on their PassResult; returns how many changed. Runs without an LLM judge are left alone.
 */
export async function applyOwnJudge(db: QueueTx, runId: string, options: ApplyOptions): Promise<number> {
  const run = await db.run.findUnique({ where: { id: runId }, select: { origin: true, judge: true } });
  if (!run) return 0;
  const judge = parseRunJudge(run.judge, run.origin);
  if (judge.kind !== "llm") return 0;
  const results = (
    await db.passResult.findMany({
      where: { officialFailStep: null, response: options.responseIds ? { runId, id: { in: [...options.responseIds] } } : { runId } },
      select: { id: true, responseId: true, valid: true, failStep: true, officialFailStep: true, verdictSource: true },
    })
  ).filter(reachesPassJudge);
  let changed = 0;
  for (let start = 0; start < results.length; start += PASS_SAMPLE_CHUNK) {
    const chunk = results.slice(start, start + PASS_SAMPLE_CHUNK);
    const samples = await passJudgeSamples(db, chunk.map((result) => result.responseId), judge.members, judge.samples);
    for (const result of chunk) {
      const byMember = samples.get(result.responseId) ?? new Map<string, boolean[]>();
      if (options.wait === "every-sample" && judge.members.some((member) => (byMember.get(member)?.length ?? 0) < judge.samples)) continue;
      const decided = ownJudgePassVerdict(result, judge.members, byMember);
      if (decided === null) continue;
      if (result.verdictSource === OWN_JUDGE_SOURCE && result.valid === decided.valid && result.failStep === decided.failStep) continue;
      await db.passResult.update({ where: { id: result.id }, data: { ...decided, verdictSource: OWN_JUDGE_SOURCE } });
      changed += 1;
    }
  }
  return changed;
}
