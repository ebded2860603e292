import "server-only";
// A stored run (imported, recorded or generated) in the official file formats: the response file and the pass
// record file, named as the official pipeline names them. A generated run's verdicts are its evaluation judge's.
// Readers may download; the check is before the query.
import { answerFromFields, passRecord, reachedJudge, responseFile, sortPassRecords, type PassRecord, type ResponseItem } from "@/lib/benchmark/official-files";
import { RECORDED_JUDGE_ID, RULE_JUDGE_ID } from "@/lib/import/plan";
import { assertAllowed } from "../authz";
import { blindVisibility } from "./review/blind-visibility";
import type { Database } from "../db";
import { evaluationLlmJudgeOfRun, passStageVerdicts } from "../evaluations/pass-stage-verdicts";
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

/** The judge reason a pass record carries: the recorded one, else an LLM judge's first sample, else the rule judge's. */
function judgeReason(verdicts: readonly { judge: string; sampleIndex: number; reason: string | null }[]): string | null {
  const recorded = verdicts.find((verdict) => verdict.judge === RECORDED_JUDGE_ID);
  if (recorded) return recorded.reason;
  const llm = verdicts.filter((verdict) => verdict.judge !== RULE_JUDGE_ID).sort((a, b) => a.sampleIndex - b.sampleIndex || (a.judge < b.judge ? -1 : 1))[0];
  if (llm) return llm.reason;
  return verdicts.find((verdict) => verdict.judge === RULE_JUDGE_ID)?.reason ?? null;
}

export async function getRunPassRecords(db: Database, actor: SessionUser | null, runId: string): Promise<OfficialDownload<PassRecord[]> | null> {
  assertAllowed(actor, "read");
  const run = await db.run.findUnique({ where: { id: runId }, select: { runNumber: true, model: { select: { name: true } } } });
  if (!run) return null;
  const responses = await db.response.findMany({
    where: { runId },
    select: {
      id: true,
      nodeSelection: true,
      designPrinciple: true,
      workflow: true,
      turn: { select: { round: true, task: { select: { name: true } } } },
      passResult: { select: { valid: true, failStep: true, officialFailStep: true } },
      judgeVerdicts: { where: { stage: "pass", casePosition: 0 }, select: { judge: true, sampleIndex: true, reason: true } },
    },
  });
  const verdicts = await passStageVerdicts(db, await evaluationLlmJudgeOfRun(db, runId), responses);
  // Blind review: records under review by this reader are left out; reasons pending review are not given anonymously.
  const blind = await blindVisibility(db, actor, { runIds: [runId] });
  const records = responses.filter((response) => !blind.verdictHidden(response.id)).map((response) => {
    const { valid, failStep } = verdicts.get(response.id) ?? { valid: false, failStep: "step_1_1" };
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
      reason: judged && !blind.reasonHidden(response.id) ? judgeReason(response.judgeVerdicts) : null,
    });
  });
  return { fileName: `pass_eval_${baseName(run)}.json`, data: sortPassRecords(records) };
}
