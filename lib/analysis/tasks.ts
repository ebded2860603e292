// The analyses of stored model text that run off the request thread (lib/server/analysis/pool.ts runs them in worker
// threads, each with a time budget): planning an imported response, re-scoring a stored one, a response page's view
// and a diff's comparison. Pure: the hash is passed in. Also what is recorded for a response whose budget ran out.
import { turnKey } from "../benchmark/dataset";
import type { RunRecord } from "../benchmark/runs";
import type { TurnSpec } from "../benchmark/turn";
import { buildComparison, type Comparison, type ComparisonInput } from "../diff-view/comparison";
import type { PassPlan, ResponsePlan } from "../import/plan-types";
import { planGeneratedResponse, planRecordedResponse, rescoreResponse, type Hasher, type StoredResponse } from "../import/plan";
import { buildResponseView, type ResponseView, type ResponseViewInput } from "../viewer/response-view";
import { makeDiagnostic } from "../workflow/diagnostic-codes";
import { DIAGNOSTIC_CATEGORIES, type Diagnostic } from "../workflow/diagnostics";

export type AnalysisTask =
  | { kind: "plan-recorded"; record: RunRecord; turn: TurnSpec; queries: readonly string[]; promptFingerprints: { pass: string | null; resolve: string | null } }
  | { kind: "plan-generated"; task: string; round: number; raw: string; turn: TurnSpec }
  | { kind: "rescore"; stored: StoredResponse; turn: TurnSpec }
  | { kind: "response-view"; input: ResponseViewInput }
  | { kind: "comparison"; input: ComparisonInput };

export type RescoreResult = ReturnType<typeof rescoreResponse>;

export interface AnalysisResults {
  "plan-recorded": ResponsePlan;
  "plan-generated": ResponsePlan;
  rescore: RescoreResult;
  "response-view": ResponseView;
  comparison: Comparison;
}

export type AnalysisResult<T extends AnalysisTask> = AnalysisResults[T["kind"]];

export function runAnalysisTask<T extends AnalysisTask>(task: T, hash: Hasher): AnalysisResult<T> {
  const result = (() => {
    switch (task.kind) {
      case "plan-recorded":
        return planRecordedResponse(task.record, task.turn, { turns: new Map(), queries: new Map([[task.record.task, task.queries]]), promptFingerprints: task.promptFingerprints }, hash);
      case "plan-generated":
        return planGeneratedResponse(task.task, task.round, task.raw, task.turn, hash);
      case "rescore":
        return rescoreResponse(task.stored, task.turn, hash);
      case "response-view":
        return buildResponseView(task.input);
      case "comparison":
        return buildComparison(task.input);
    }
  })();
  return result as AnalysisResult<T>;
}

/** The diagnostic a response gets when its analysis ran out of time. */
export function budgetDiagnostic(budgetMs: number): Diagnostic {
  return makeDiagnostic("analysis-time-budget", `Scoring this response took longer than its ${Math.round(budgetMs / 100) / 10} s budget and was stopped; it counts as failing here.`, {
    location: { field: "raw" },
    hint: "Nothing in a normal response comes near this limit; look at the response's text for something built to slow a parser down.",
  });
}

function budgetPass(recorded: { valid: boolean; failStep: string | null } | null): PassPlan {
  return {
    valid: recorded ? recorded.valid : false,
    failStep: recorded ? recorded.failStep : "step_1_1",
    verdictSource: recorded ? "recorded" : "deterministic",
    recordedValid: recorded?.valid ?? null,
    recordedFailStep: recorded?.failStep ?? null,
    officialFailStep: "step_1_1",
    ruleJudge: null,
    deterministicValid: false,
    disagreement: null,
    repairedFailStep: "step_1_1",
    repairedRuleJudge: null,
    repairs: [],
    topDiagnosticCode: "analysis-time-budget",
    categoryCounts: Object.fromEntries(DIAGNOSTIC_CATEGORIES.map((category) => [category, category === "format" ? 1 : 0])),
  };
}

/**
 * The plan of a response whose scoring ran out of time: its texts and recorded verdicts as given, this app's verdict
 * failing with the budget diagnostic, no rule-judge verdict.
 */
export function budgetExceededPlan(task: Extract<AnalysisTask, { kind: "plan-recorded" | "plan-generated" }>, budgetMs: number): ResponsePlan {
  const diagnostics = [budgetDiagnostic(budgetMs)];
  if (task.kind === "plan-generated") {
    return { turnKey: turnKey(task.task, task.round), rawText: task.raw, nodeSelection: null, designPrinciple: null, workflow: null, pass: budgetPass(null), diagnostics, cases: [], judgeVerdicts: [] };
  }
  const { record } = task;
  const full = planRecordedShell(record);
  return { ...full, pass: budgetPass({ valid: record.valid, failStep: record.fail_step ?? null }), diagnostics };
}

function planRecordedShell(record: RunRecord): Omit<ResponsePlan, "pass" | "diagnostics"> {
  return {
    turnKey: turnKey(record.task, record.round),
    rawText: null,
    nodeSelection: record.node_selection,
    designPrinciple: record.design_principle,
    workflow: record.workflow,
    cases: [],
    judgeVerdicts: [],
  };
}

/** A re-score that ran out of time: the recorded parts kept, this app's verdict failing with the budget diagnostic. */
export function budgetExceededRescore(stored: StoredResponse, budgetMs: number): RescoreResult {
  const recorded = stored.recordedValid === null ? null : { valid: stored.recordedValid, failStep: stored.recordedFailStep };
  return { pass: budgetPass(recorded), diagnostics: [budgetDiagnostic(budgetMs)], ruleVerdict: null };
}

/** A response page's view when its analysis ran out of time: the texts as stored, no graph, the budget diagnostic. */
export function budgetExceededView(input: ResponseViewInput, budgetMs: number): ResponseView {
  const diagnostic = { ...budgetDiagnostic(budgetMs), id: 0, nodeKeys: [], edgeKey: null, textField: "raw" as const };
  const none = { view: null, prettyJson: null, yaml: null, yamlMissingReason: "The response was not analysed within its time budget." };
  return {
    source: input.rawText !== null ? "raw" : "record",
    texts: { raw: input.rawText, nodeSelection: input.nodeSelection, designPrinciple: input.designPrinciple, workflow: input.workflow },
    parses: false,
    officialFailStep: "step_1_1",
    failStep: "step_1_1",
    passed: false,
    ruleJudge: null,
    diagnostics: [diagnostic],
    categoryCounts: Object.fromEntries(DIAGNOSTIC_CATEGORIES.map((category) => [category, category === "format" ? 1 : 0])) as ResponseView["categoryCounts"],
    original: none,
    repaired: { ...none, applied: [], officialFailStep: "step_1_1", failStep: "step_1_1", passed: false },
    coze: { fileName: null, missingReason: "The response was not analysed within its time budget." },
  };
}
