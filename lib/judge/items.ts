// Builds the questions a judge is asked from recorded data: one pass-stage item per turn that passed steps 1_1–1_3,
// one resolve item per test case with recorded non-file outputs. Pure; a turn missing from the dataset is an issue.

import { turnKey } from "../benchmark/dataset";
import type { RunRecord } from "../benchmark/runs";
import type { TurnSpec } from "../benchmark/turn";
import { judgeMessages, passUserMessage, resolveUserMessage, type ChatMessage, type JudgeStage } from "./protocol";

export type TestPosition = 1 | 2 | 3;
export const TEST_POSITIONS: readonly TestPosition[] = [1, 2, 3];

/** One question for a judge, with the official messages and the recorded verdict to compare with. */
export interface JudgeItem {
  /** Stable within a judging run: "<model>/<Task>_<round>" or "<model>/<Task>_<round>/test<n>". */
  key: string;
  stage: JudgeStage;
  /** The run's model (the run file's base name). */
  model: string;
  task: string;
  round: number;
  /** null for the pass stage. */
  test: TestPosition | null;
  /** [system, user] as the official judge sends them. */
  messages: ChatMessage[];
  /** The verdict the run recorded for this question, when it has one. */
  recorded: boolean | null;
  /** What the question is about, canonically (hash it for JudgeVerdict.inputFingerprint). */
  inputMaterial: string;
}

export interface JudgeItemIssue {
  key: string;
  problem: string;
}

export interface RecordedRun {
  model: string;
  records: readonly RunRecord[];
}

export interface JudgeItemContext {
  turns: ReadonlyMap<string, TurnSpec>;
  /** Instructions per task, query1..queryN. */
  queries: ReadonlyMap<string, readonly string[]>;
  /** The system prompt as sent (see officialSystemPrompt). */
  systemPrompt: string;
}

export interface BuiltItems {
  items: JudgeItem[];
  issues: JudgeItemIssue[];
}

/** A record reached the pass-stage judge when it is valid or failed at step 1_4 or later. */
export function reachedPassJudge(record: Pick<RunRecord, "valid" | "fail_step">): boolean {
  return record.valid || record.fail_step === "step_1_4" || record.fail_step === "step_1_5";
}

/** The inputFingerprint material of a pass-stage question (the import computes the same). */
export function passInputMaterial(nodeSelection: string | null, designPrinciple: string | null, workflow: string | null, keyNodes: readonly string[]): string {
  return JSON.stringify({ nodeSelection, designPrinciple, workflow, gtNodes: keyNodes });
}

/** The inputFingerprint material of a resolve-stage question (the import computes the same). */
export function resolveInputMaterial(queries: readonly string[], inputs: unknown, output: string | null, reference: string): string {
  return JSON.stringify({ queries, inputs, output, reference });
}

export function passJudgeItems(runs: readonly RecordedRun[], context: JudgeItemContext): BuiltItems {
  const items: JudgeItem[] = [];
  const issues: JudgeItemIssue[] = [];
  for (const run of runs) {
    for (const record of run.records) {
      if (!reachedPassJudge(record)) continue;
      const key = `${run.model}/${turnKey(record.task, record.round)}`;
      const turn = context.turns.get(turnKey(record.task, record.round));
      if (!turn) {
        issues.push({ key, problem: `the benchmark has no turn ${turnKey(record.task, record.round)}` });
        continue;
      }
      if (record.node_selection === null || record.design_principle === null || record.workflow === null) {
        issues.push({ key, problem: "the record reached the judge but has no node_selection, design_principle or workflow" });
        continue;
      }
      const user = passUserMessage({
        nodeSelection: record.node_selection,
        designPrinciple: record.design_principle,
        workflow: record.workflow,
        keyNodes: turn.keyNodes,
      });
      items.push({
        key,
        stage: "pass",
        model: run.model,
        task: record.task,
        round: record.round,
        test: null,
        messages: judgeMessages(context.systemPrompt, user),
        recorded: record.valid || record.fail_step !== "step_1_4",
        inputMaterial: passInputMaterial(record.node_selection, record.design_principle, record.workflow, turn.keyNodes),
      });
    }
  }
  return { items, issues };
}

export function resolveJudgeItems(runs: readonly RecordedRun[], context: JudgeItemContext): BuiltItems {
  const items: JudgeItem[] = [];
  const issues: JudgeItemIssue[] = [];
  for (const run of runs) {
    for (const record of run.records) {
      for (const position of TEST_POSITIONS) {
        const output = record[`llm_output_test${position}`];
        if (output === undefined) continue;
        const key = `${run.model}/${turnKey(record.task, record.round)}/test${position}`;
        const turn = context.turns.get(turnKey(record.task, record.round));
        const test = turn?.tests[position - 1];
        const queries = context.queries.get(record.task);
        if (!test || !queries) {
          issues.push({ key, problem: `the benchmark has no test ${position} of ${turnKey(record.task, record.round)}` });
          continue;
        }
        if (queries.length < record.round) {
          issues.push({ key, problem: `${record.task} has ${queries.length} instructions; round ${record.round} needs more` });
          continue;
        }
        const user = resolveUserMessage({ queries, round: record.round, inputs: test.inputs, outputs: output, groundTruth: test.groundTruth });
        const recorded = record[`test${position}`];
        items.push({
          key,
          stage: "resolve",
          model: run.model,
          task: record.task,
          round: record.round,
          test: position,
          messages: judgeMessages(context.systemPrompt, user),
          recorded: typeof recorded === "boolean" ? recorded : null,
          inputMaterial: resolveInputMaterial(queries.slice(0, record.round), test.inputs, output, test.groundTruth ?? ""),
        });
      }
    }
  }
  return { items, issues };
}

/** Items of either stage. */
export function judgeItemsFor(stage: JudgeStage, runs: readonly RecordedRun[], context: JudgeItemContext): BuiltItems {
  return stage === "pass" ? passJudgeItems(runs, context) : resolveJudgeItems(runs, context);
}
