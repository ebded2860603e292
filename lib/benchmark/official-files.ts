// The official files a run downloads as: the response file [{id, category, task, answer1..N}] and the pass record
// file [{task, round, node_selection, design_principle, workflow, valid, has_been_judged, fail_step?, reason?}].
// Pure: built from stored values, with the official key order, so the official statistics script reads them.

import { turnKey } from "./dataset";
import { RUN_FAIL_STEPS, type RunFailStep, type RunRecord } from "./runs";

/** An entry of the official response file: id, category, task, then answer1..answerN. */
export type ResponseItem = { id: number; category: string; task: string } & Record<`answer${number}`, string>;

/** One pass record as the official pass stage writes it (api_key only once a Dify import ran). */
export type PassRecord = Pick<RunRecord, "task" | "round" | "node_selection" | "design_principle" | "workflow" | "valid" | "has_been_judged" | "fail_step" | "reason" | "api_key">;

/**
 * The answer text of a turn stored without its raw text (recorded runs): the three tags rebuilt from the recorded
 * fields, which extract back to the same fields; a turn whose tags were missing gives text without tags.
 */
export function answerFromFields(fields: { nodeSelection: string | null; designPrinciple: string | null; workflow: string | null }): string {
  if (fields.nodeSelection === null && fields.designPrinciple === null && fields.workflow === null) return "";
  const parts: string[] = [];
  if (fields.nodeSelection !== null) parts.push(`<node_selection>${fields.nodeSelection}</node_selection>`);
  if (fields.designPrinciple !== null) parts.push(`<design_principle>${fields.designPrinciple}</design_principle>`);
  if (fields.workflow !== null) parts.push(`<workflow>${fields.workflow}</workflow>`);
  return parts.join("\n\n");
}

/** The response file: one entry per task in benchmark order, holding the answers present, in round order. */
export function responseFile(
  tasks: readonly { id: number; category: string; task: string; rounds: number }[],
  answers: ReadonlyMap<string, string>,
): ResponseItem[] {
  return tasks.map((task) => {
    const item = { id: task.id, category: task.category, task: task.task } as ResponseItem;
    for (let round = 1; round <= task.rounds; round++) {
      const answer = answers.get(turnKey(task.task, round));
      if (answer !== undefined) item[`answer${round}`] = answer;
    }
    return item;
  });
}

export interface PassRecordSource {
  task: string;
  round: number;
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
  valid: boolean;
  failStep: string | null;
  /** The turn reached the step 1_4 judge. */
  judged: boolean;
  /** The step 1_4 judge's reason, when judged. */
  reason: string | null;
}

/** Whether a fail step means the step 1_4 judge ran (it did for passes, step 1_4 and step 1_5 failures). */
export function reachedJudge(failStep: string | null): boolean {
  return failStep === null || failStep === "step_1_4" || failStep === "step_1_5";
}

const isFailStep = (step: string | null): step is RunFailStep => (RUN_FAIL_STEPS as readonly (string | null)[]).includes(step);

/** One pass record with the official key order; fail_step only when invalid, reason only when judged. */
export function passRecord(source: PassRecordSource): PassRecord {
  const record: PassRecord = {
    task: source.task,
    round: source.round,
    node_selection: source.nodeSelection,
    design_principle: source.designPrinciple,
    workflow: source.workflow,
    valid: source.valid,
    has_been_judged: source.judged,
  };
  if (!source.valid && isFailStep(source.failStep)) record.fail_step = source.failStep;
  if (source.judged && source.reason !== null) record.reason = source.reason;
  return record;
}

/** Python's default string order: by code point, not UTF-16 unit. */
export function codePointCompare(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let index = 0; index < Math.min(left.length, right.length); index += 1) {
    const difference = left[index]!.codePointAt(0)! - right[index]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** Sorted by (task, round) as the official pass stage sorts its (task, round) tuples. */
export function sortPassRecords(records: readonly PassRecord[]): PassRecord[] {
  return [...records].sort((a, b) => codePointCompare(a.task, b.task) || a.round - b.round);
}

/** A scored answer as the import plans it (ResponsePlan's fields this needs). */
export interface ScoredAnswer {
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
  pass: { valid: boolean; failStep: string | null; officialFailStep: string | null };
  judgeVerdicts: readonly { stage: string; reason: string | null }[];
}

/** The pass record of a freshly scored answer: steps 1_1–1_3 reproduced, the rule judge standing in for step 1_4. */
export function passRecordOfScored(task: string, round: number, scored: ScoredAnswer): PassRecord {
  const judged = scored.pass.officialFailStep === null;
  return passRecord({
    task,
    round,
    nodeSelection: scored.nodeSelection,
    designPrinciple: scored.designPrinciple,
    workflow: scored.workflow,
    valid: scored.pass.valid,
    failStep: scored.pass.failStep,
    judged,
    reason: scored.judgeVerdicts.find((verdict) => verdict.stage === "pass")?.reason ?? null,
  });
}

/** A run's official JSON file as every download writes it: indent 4, as the official pipeline writes its files. */
export const officialJsonText = (data: unknown): string => JSON.stringify(data, null, 4);

/** The resolve record file's text, as the run page downloads it (with a final newline). */
export const resolveRecordsText = (records: unknown): string => `${officialJsonText(records)}\n`;

/** The resolve record file's name, as the official resolve stage names it. */
export const resolveRecordsFileName = (modelName: string): string => `resolve_eval_${modelName.replace(/[^\w.-]/g, "_").slice(0, 100)}.json`;
