import "server-only";
// A stored run (imported, recorded or generated) in the official file formats: the response file and the pass
// record file, named as the official pipeline names them. Verdicts are the run's own judge's (stored on PassResult).
// Readers may download; the check is before the query.
import { answerFromFields, passRecord, reachedJudge, responseFile, sortPassRecords, type PassRecord, type ResponseItem } from "@/lib/benchmark/official-files";
import { RECORDED_JUDGE_ID, RULE_JUDGE_ID } from "@/lib/import/plan";
import { parseRunJudge, type RunJudge } from "@/lib/judge/run-judge";
import { assertAllowed } from "../authz";
import { blindVisibility } from "./review/blind-visibility";
import type { Database } from "../db";
import { passStageVerdict } from "../evaluations/pass-stage-verdicts";
import type { SessionUser } from "../session";

export interface OfficialDownload<T> {
  fileName: string;
  data: T;
}

function baseName(run: { model: { name: string }; runNumber: number | null }): string {
  return run.runNumber === null ? run.model.name : `${run.model.name}_run${run.runNumber}`;
}

export async function getRunResponseFile(db: Database, actor: SessionUser | null, runId: string): Promise<OfficialDownload<ResponseItem[]> | null> {
  assertAllowed(actor, "read");
  const run = await db.run.findUnique({ where: { id: runId }, select: { benchmarkId: true, runNumber: true, model: { select: { name: true } } } });
  if (!run) return null;
  const [tasks, responses] = await Promise.all([
    db.task.findMany({ where: { benchmarkId: run.benchmarkId }, orderBy: { externalId: "asc" }, select: { externalId: true, name: true, roundCount: true, domain: { select: { name: true } } } }),
    db.response.findMany({ where: { runId }, select: { rawText: true, nodeSelection: true, designPrinciple: true, workflow: true, turn: { select: { key: true } } } }),
  ]);
  const answers = new Map(responses.map((response) => [response.turn.key, response.rawText ?? answerFromFields(response)]));
  const data = responseFile(
    tasks.map((task) => ({ id: task.externalId, category: task.domain.name, task: task.name, rounds: task.roundCount })),
    answers,
  );
  return { fileName: `response_${baseName(run)}.json`, data };
}

/**
 * The judge reason a pass record carries: the run's own judge's (the recorded one; an LLM judge's first sample that
 * agrees with the verdict, members in name order; the rule judge's).
 */
function judgeReason(verdicts: readonly { judge: string; sampleIndex: number; reason: string | null; verdict: boolean }[], judge: RunJudge, valid: boolean): string | null {
  if (judge.kind === "recorded") return verdicts.find((verdict) => verdict.judge === RECORDED_JUDGE_ID)?.reason ?? null;
  if (judge.kind === "llm") {
    const own = verdicts.filter((verdict) => judge.members.includes(verdict.judge)).sort((a, b) => a.sampleIndex - b.sampleIndex || (a.judge < b.judge ? -1 : 1));
    const chosen = own.find((verdict) => verdict.verdict === valid) ?? own[0];
    if (chosen) return chosen.reason;
  }
  return verdicts.find((verdict) => verdict.judge === RULE_JUDGE_ID)?.reason ?? null;
}

export async function getRunPassRecords(db: Database, actor: SessionUser | null, runId: string): Promise<OfficialDownload<PassRecord[]> | null> {
  assertAllowed(actor, "read");
  const run = await db.run.findUnique({ where: { id: runId }, select: { runNumber: true, origin: true, judge: true, model: { select: { name: true } } } });
  if (!run) return null;
  const judge = parseRunJudge(run.judge, run.origin);
  const responses = await db.response.findMany({
    where: { runId },
    select: {
      id: true,
      nodeSelection: true,
      designPrinciple: true,
      workflow: true,
      turn: { select: { round: true, task: { select: { name: true } } } },
      passResult: { select: { valid: true, failStep: true } },
      judgeVerdicts: { where: { stage: "pass", casePosition: 0 }, select: { judge: true, sampleIndex: true, reason: true, verdict: true } },
    },
  });
  // Blind review: records under review by this reader are left out; reasons pending review are not given anonymously.
  const blind = await blindVisibility(db, actor, { runIds: [runId] });
  const records = responses.filter((response) => !blind.verdictHidden(response.id)).map((response) => {
    const { valid, failStep } = passStageVerdict(response);
    const judged = reachedJudge(valid ? null : (failStep ?? "step_1_1"));
    return passRecord({
      task: response.turn.task.name,
      round: response.turn.round,
      nodeSelection: response.nodeSelection,
      designPrinciple: response.designPrinciple,
      workflow: response.workflow,
      valid,
      failStep,
      judged,
      reason: judged && !blind.reasonHidden(response.id) ? judgeReason(response.judgeVerdicts, judge, valid) : null,
    });
  });
  return { fileName: `pass_eval_${baseName(run)}.json`, data: sortPassRecords(records) };
}
