// Everything a diff page shows about two stored responses, computed once on the server as plain serialisable data;
// a workflow that does not parse is diffed through its mechanical repair, or as no workflow.

import { diffWorkflows, findRegressions, type CheckComparison, type DiffIssue, type WorkflowDiff } from "../diff";
import { explainRuleJudge } from "../import/plan";
import { layoutWorkflowView, type LaidOutView } from "../viewer/layout";
import { READABLE_ZOOM } from "../viewer/viewport";
import { buildWorkflowView, type ViewDiagnostic } from "../viewer/model";
import type { JsonValue } from "../workflow/python-values";
import { repairResponse } from "../workflow/repair";
import { scoreResponse, type ScoreTurn, type ScoredResponse } from "../workflow/score";
import { storedResponseInput } from "../workflow/response";
import { changeCounts, workflowChangesFirst, type ChangeGroupCount } from "./groups";
import { nodeKeyOf, sideMarks, withProblemMarks, type CanvasMarks } from "./marks";
import { mergeWorkflows, type MergedWorkflow } from "./merged";
import { changeTargets, type ChangeTarget } from "./targets";

export interface ComparisonResponseInput {
  /** The raw answer (generation-format imports); when set it is what gets scored. */
  rawText: string | null;
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
  turn: ScoreTurn;
}

export interface ComparisonInput {
  before: ComparisonResponseInput;
  after: ComparisonResponseInput;
}

export interface FormatProblem {
  message: string;
  line: number | null;
  column: number | null;
  hint: string | null;
}

export interface SideVerdict {
  officialFailStep: string | null;
  failStep: string | null;
  passed: boolean;
  ruleJudge: boolean | null;
  ruleJudgeExplanation: string | null;
}

export interface ComparisonSide {
  /** Whether the workflow JSON parses as written. */
  parses: boolean;
  /** What was drawn and diffed: the workflow as written, its mechanical repair, or nothing. */
  graph: "original" | "repaired" | "none";
  /** The repairs applied when `graph` is "repaired". */
  repairs: string[];
  /** Why the JSON does not parse (format diagnostics with their positions); empty when it parses. */
  formatProblems: FormatProblem[];
  view: LaidOutView | null;
  /** Every diagnostic of the response as written; anchored on `view` when it is the original graph. */
  diagnostics: ViewDiagnostic[];
  marks: CanvasMarks;
  verdict: SideVerdict;
  /** What the diff could not read on this side. */
  issues: DiffIssue[];
}

export interface Comparison {
  /** How to place the two graphs: wide left-to-right drawings read better one above the other. */
  suggestedLayout: PairLayout;
  before: ComparisonSide;
  after: ComparisonSide;
  diff: WorkflowDiff;
  /** One per diff.changes entry. */
  targets: ChangeTarget[];
  counts: ChangeGroupCount[];
  /**
   * The later workflow with the removed nodes and edges added back (laid out on demand with layoutMerged); null when
   * neither side has nodes. The later workflow's node keys are the same on the merged canvas; `fromBefore` maps the
   * earlier canvas's node keys.
   */
  merged: MergedSource | null;
  regressions: {
    /** Ids (in `after.diagnostics`) of the diagnostics with no counterpart in the earlier response. */
    newDiagnosticIds: number[];
    /** Ids (in `before.diagnostics`) of the diagnostics that are gone. */
    resolvedDiagnosticIds: number[];
    checks: CheckComparison[];
  };
}

export interface MergedSource {
  workflow: MergedWorkflow["workflow"];
  marks: CanvasMarks;
  fromBefore: Record<string, string>;
  /** The later side's diagnostics anchor on the merged graph (it is the original later workflow, not a repair). */
  afterDiagnostics: boolean;
}

export type PairLayout = "side-by-side" | "stacked";

/** Drawings more than twice as wide as tall (long chains) get full-width canvases, one above the other. */
export function suggestLayout(views: readonly ({ bounds: { width: number; height: number } } | null)[]): PairLayout {
  let width = 0;
  let height = 0;
  for (const view of views) {
    if (!view) continue;
    width = Math.max(width, view.bounds.width);
    height = Math.max(height, view.bounds.height);
  }
  return width > 2 * Math.max(height, 1) ? "stacked" : "side-by-side";
}

/**
 * Canvas height (px) for the pair: side by side, tall canvases; stacked, about what the taller drawing needs at the
 * readable zoom (the canvas never shrinks text below it), so both canvases fit on one screen where they can.
 */
export function pairCanvasHeight(layout: PairLayout, views: readonly ({ bounds: { width: number; height: number } } | null)[]): number {
  if (layout === "side-by-side") return 560;
  let height = 0;
  for (const view of views) if (view) height = Math.max(height, view.bounds.height);
  return Math.min(560, Math.max(280, Math.round(height * READABLE_ZOOM) + 60));
}

/** The label new diagnostics get on the later canvas. */
export const NEW_PROBLEM_LABEL = "new problem";

function score(input: ComparisonResponseInput): ScoredResponse {
  return scoreResponse(storedResponseInput(input), input.turn);
}

interface Prepared {
  scored: ScoredResponse;
  graphValue: JsonValue | null;
  graph: ComparisonSide["graph"];
  repairs: string[];
  view: LaidOutView | null;
  diagnostics: ViewDiagnostic[];
}

function prepare(input: ComparisonResponseInput): Prepared {
  const scored = score(input);
  const parsed = scored.parsed;
  if (parsed.json.ok) {
    const built = buildWorkflowView({ workflow: parsed.json.value, diagnostics: scored.diagnostics });
    return {
      scored,
      graphValue: parsed.json.value,
      graph: "original",
      repairs: [],
      view: built.drawable ? layoutWorkflowView(built) : null,
      diagnostics: built.diagnostics,
    };
  }
  // Not anchored on any graph: these diagnostics point into the text.
  const diagnostics = buildWorkflowView({ workflow: null, diagnostics: scored.diagnostics }).diagnostics;
  const repair = repairResponse(parsed, { judge: scored.ruleJudge });
  if (repair.value === null) return { scored, graphValue: null, graph: "none", repairs: [], view: null, diagnostics };
  const built = buildWorkflowView({ workflow: repair.value });
  return {
    scored,
    graphValue: repair.value,
    graph: "repaired",
    repairs: repair.applied.map((r) => r.description),
    view: built.drawable ? layoutWorkflowView(built) : null,
    diagnostics,
  };
}

function formatProblems(prepared: Prepared): FormatProblem[] {
  if (prepared.scored.parsed.json.ok) return [];
  return prepared.diagnostics
    .filter((d) => d.category === "format")
    .map((d) => ({ message: d.message, line: d.location?.line ?? null, column: d.location?.column ?? null, hint: d.hint ?? null }));
}

function verdictOf(scored: ScoredResponse): SideVerdict {
  return {
    officialFailStep: scored.officialFailStep,
    failStep: scored.failStep,
    passed: scored.passed,
    ruleJudge: scored.ruleJudge ? scored.ruleJudge.verdict : null,
    ruleJudgeExplanation: scored.ruleJudge ? explainRuleJudge(scored.ruleJudge) : null,
  };
}

function idsOf(all: readonly unknown[], picked: readonly unknown[]): number[] {
  const index = new Map(all.map((item, i) => [item, i]));
  return picked.map((item) => index.get(item)).filter((id): id is number => id !== undefined);
}

export function buildComparison(input: ComparisonInput): Comparison {
  const before = prepare(input.before);
  const after = prepare(input.after);
  const computed = diffWorkflows(
    { workflow: before.graphValue, nodeSelection: before.scored.parsed.nodeSelection, turn: input.before.turn },
    { workflow: after.graphValue, nodeSelection: after.scored.parsed.nodeSelection, turn: input.after.turn },
  );
  // The list (and its targets, built below from the same array) starts with what changed in the workflow.
  const diff = { ...computed, changes: workflowChangesFirst(computed.changes) };
  const report = findRegressions(before.scored, after.scored, { diff, beforeTurn: input.before.turn, afterTurn: input.after.turn });
  const newDiagnosticIds = idsOf(after.scored.diagnostics, report.newDiagnostics);
  const resolvedDiagnosticIds = idsOf(before.scored.diagnostics, report.resolvedDiagnostics);

  const nodeKeysOf = (diagnostics: readonly ViewDiagnostic[]) => (id: number) => diagnostics[id]?.nodeKeys ?? [];
  const afterMarks = withProblemMarks(sideMarks(diff, "after"), nodeKeysOf(after.diagnostics), newDiagnosticIds, NEW_PROBLEM_LABEL);

  const mergedWorkflow = mergeWorkflows(before.graphValue, after.graphValue, diff);
  let merged: Comparison["merged"] = null;
  if (mergedWorkflow.workflow.nodes_info.length > 0) {
    const fromBefore: Record<string, string> = {};
    diff.nodes.forEach((node, position) => {
      const key = mergedWorkflow.nodeKeys[position];
      if (node.before && key !== undefined) fromBefore[nodeKeyOf(node.before)] = key;
    });
    merged = { workflow: mergedWorkflow.workflow, marks: mergedWorkflow.marks, fromBefore, afterDiagnostics: after.graph === "original" };
  }

  const side = (prepared: Prepared, marks: CanvasMarks, issues: DiffIssue[]): ComparisonSide => ({
    parses: prepared.scored.parsed.json.ok,
    graph: prepared.graph,
    repairs: prepared.repairs,
    formatProblems: formatProblems(prepared),
    view: prepared.view,
    diagnostics: prepared.diagnostics,
    marks,
    verdict: verdictOf(prepared.scored),
    issues,
  });

  return {
    suggestedLayout: suggestLayout([before.view, after.view]),
    before: side(before, sideMarks(diff, "before"), diff.issues.before),
    after: side(after, afterMarks, diff.issues.after),
    diff,
    targets: changeTargets(diff, merged ? mergedWorkflow : null),
    counts: changeCounts(diff.summary),
    merged,
    regressions: { newDiagnosticIds, resolvedDiagnosticIds, checks: report.checks },
  };
}

/**
 * The merged graph, drawn: laid out with the later side's diagnostics (and their "new problem" marks). Kept out of
 * buildComparison so the server does not lay out a graph the page may never show; the client calls it on demand.
 */
export function layoutMerged(comparison: Pick<Comparison, "merged" | "after" | "regressions">): { view: LaidOutView; marks: CanvasMarks } | null {
  const merged = comparison.merged;
  if (!merged) return null;
  const built = buildWorkflowView({ workflow: merged.workflow as JsonValue, diagnostics: merged.afterDiagnostics ? comparison.after.diagnostics : [] });
  if (!built.drawable) return null;
  const ids = comparison.regressions.newDiagnosticIds;
  const marks = merged.afterDiagnostics ? withProblemMarks(merged.marks, (id) => built.diagnostics[id]?.nodeKeys ?? [], ids, NEW_PROBLEM_LABEL) : merged.marks;
  return { view: layoutWorkflowView(built), marks };
}

/** A stored response (its texts and turn, as the diff data access reads them) as a comparison side. */
export function comparisonInputOf(response: {
  texts: { rawText: string | null; nodeSelection: string | null; designPrinciple: string | null; workflow: string | null };
  turn: ScoreTurn;
}): ComparisonResponseInput {
  return { ...response.texts, turn: { inputVars: response.turn.inputVars, outputVars: response.turn.outputVars, keyNodes: response.turn.keyNodes } };
}
