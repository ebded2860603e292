// Builds the questions a judge is asked from recorded data: one pass-stage item per turn that passed steps 1_1–1_3,
// one resolve item per test case with recorded non-file outputs. Pure; a turn missing from the dataset is an issue.

import { turnKey } from "../benchmark/dataset";
import type { RunRecord } from "../benchmark/runs";
import type { TurnSpec } from "../benchmark/turn";
import { judgeMessages, passUserMessage, resolveUserMessage, type ChatMessage, type JudgeStage, type JudgeTestInput } from "./protocol";

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

/** What one pass-stage question is built from (stored responses give the same fields as run records). */
export interface PassQuestion {
  model: string;
  task: string;
  round: number;
  nodeSelection: string;
  designPrinciple: string;
  workflow: string;
  keyNodes: readonly string[];
  recorded: boolean | null;
}

/** What one resolve-stage question is built from. */
export interface ResolveQuestion {
  model: string;
  task: string;
  round: number;
  test: TestPosition;
  /** The task's instructions, round 1 first. */
  queries: readonly string[];
  inputs: Readonly<Record<string, JudgeTestInput>>;
  /** The non-file outputs as the pipeline rendered them (`llm_output_testN`). */
  outputs: string;
  groundTruth: string | null;
  recorded: boolean | null;
}

export function passJudgeItem(question: PassQuestion, systemPrompt: string): JudgeItem {
  const user = passUserMessage(question);
  return {
    key: `${question.model}/${turnKey(question.task, question.round)}`,
    stage: "pass",
    model: question.model,
    task: question.task,
    round: question.round,
    test: null,
    messages: judgeMessages(systemPrompt, user),
    recorded: question.recorded,
    inputMaterial: passInputMaterial(question.nodeSelection, question.designPrinciple, question.workflow, question.keyNodes),
  };
}

export function resolveJudgeItem(question: ResolveQuestion, systemPrompt: string): JudgeItem {
  const user = resolveUserMessage({ queries: question.queries, round: question.round, inputs: question.inputs, outputs: question.outputs, groundTruth: question.groundTruth });
  return {
    key: `${question.model}/${turnKey(question.task, question.round)}/test${question.test}`,
    stage: "resolve",
    model: question.model,
    task: question.task,
    round: question.round,
    test: question.test,
    messages: judgeMessages(systemPrompt, user),
    recorded: question.recorded,
    inputMaterial: resolveInputMaterial(question.queries.slice(0, question.round), question.inputs, question.outputs, question.groundTruth ?? ""),
  };
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
      const question: PassQuestion = {
        model: run.model,
        task: record.task,
        round: record.round,
        nodeSelection: record.node_selection,
        designPrinciple: record.design_principle,
        workflow: record.workflow,
        keyNodes: turn.keyNodes,
        recorded: record.fail_step !== "step_1_4",
      };
      items.push(passJudgeItem(question, context.systemPrompt));
    }
  }
  return { items, issues };
}

export function resolveJudgeItems(runs: readonly RecordedRun[], context: JudgeItemContext): BuiltItems {
  const items: JudgeItem[] = [];
  const issues: JudgeItemIssue[] = [];
  for (const run of runs) {
    for (const record of run.records) {
      for (const test of TEST_POSITIONS) {
        const outputs = record[`llm_output_test${test}`];
        if (outputs === undefined) continue;
        const key = `${run.model}/${turnKey(record.task, record.round)}/test${test}`;
        const spec = context.turns.get(turnKey(record.task, record.round))?.tests[test - 1];
        const queries = context.queries.get(record.task);
        if (!spec || !queries) {
          issues.push({ key, problem: `the benchmark has no test ${test} of ${turnKey(record.task, record.round)}` });
          continue;
        }
        if (queries.length < record.round) {
          issues.push({ key, problem: `${record.task} has ${queries.length} instructions; round ${record.round} needs more` });
          continue;
        }
        const recorded = record[`test${test}`];
        const question: ResolveQuestion = {
          model: run.model,
          task: record.task,
          round: record.round,
          test,
          queries,
          inputs: spec.inputs,
          outputs,
          groundTruth: spec.groundTruth,
          recorded: typeof recorded === "boolean" ? recorded : null,
        };
        items.push(resolveJudgeItem(question, context.systemPrompt));
      }
    }
  }
  return { items, issues };
}

/** Items of either stage. */
export function judgeItemsFor(stage: JudgeStage, runs: readonly RecordedRun[], context: JudgeItemContext): BuiltItems {
  return stage === "pass" ? passJudgeItems(runs, context) : resolveJudgeItems(runs, context);
}
