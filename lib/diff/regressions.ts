// Regressions between two scored responses: diagnostics new in the later one, located through the diff's matching,
// and checks that passed before and fail now.

import { checkVariableNames } from "../workflow/official-verdict";
import type { Diagnostic } from "../workflow/diagnostics";
import type { ScoreTurn, ScoredResponse } from "../workflow/score";
import { diffWorkflows } from "./diff";
import type { WorkflowDiff } from "./types";

export const REGRESSION_CHECKS = ["format", "conversion", "io-consistency", "key-nodes", "node-consistency", "rule-judge", "passed"] as const;
export type RegressionCheck = (typeof REGRESSION_CHECKS)[number];

const CHECK_LABELS: Readonly<Record<RegressionCheck, string>> = {
  format: "Tags and workflow JSON parse (step 1_1)",
  conversion: "Converts to a Dify workflow (step 1_2)",
  "io-consistency": "Input and output variables match the task (step 1_3)",
  "key-nodes": "node_selection declares the task's key nodes",
  "node-consistency": "node_selection matches the node types used",
  "rule-judge": "Node-consistency judge (step 1_4, rule judge)",
  passed: "Passes the pass stage",
};

export interface CheckComparison {
  check: RegressionCheck;
  label: string;
  /** null: not evaluated on that side (an earlier step failed and nothing else could tell). */
  before: boolean | null;
  after: boolean | null;
  /** Passed before, fails now. */
  regressed: boolean;
  /** Failed before, passes now. */
  fixed: boolean;
}

export interface RegressionReport {
  /** Diagnostics of the later response with no counterpart in the earlier one. */
  newDiagnostics: Diagnostic[];
  /** Diagnostics of the earlier response that are gone. */
  resolvedDiagnostics: Diagnostic[];
  checks: CheckComparison[];
  /** The checks that regressed, in REGRESSION_CHECKS order. */
  regressions: CheckComparison[];
}

export interface RegressionOptions {
  diff?: WorkflowDiff;
  beforeTurn?: ScoreTurn | null;
  afterTurn?: ScoreTurn | null;
}

function ioCheck(score: ScoredResponse, turn: ScoreTurn | null | undefined): boolean | null {
  if (score.officialFailStep === null) return true;
  if (score.officialFailStep === "step_1_3") return false;
  // Steps 1_1 / 1_2 failed first, so the official pipeline never ran the check; run it when we can.
  if (!turn || !score.parsed.json.ok) return null;
  return checkVariableNames(score.parsed.json.value, turn).length === 0;
}

function checkValues(score: ScoredResponse, turn: ScoreTurn | null | undefined): Record<RegressionCheck, boolean | null> {
  const judge = score.ruleJudge;
  return {
    format: score.officialFailStep !== "step_1_1",
    conversion: score.officialFailStep === "step_1_1" ? null : score.officialFailStep !== "step_1_2",
    "io-consistency": ioCheck(score, turn),
    "key-nodes": judge ? judge.missingKeyNodes.length === 0 : null,
    "node-consistency": judge ? judge.undeclaredUsed.length === 0 && judge.declaredUnused.length === 0 : null,
    "rule-judge": judge ? judge.verdict : null,
    passed: score.passed,
  };
}

type Side = "before" | "after";

/** Where a diagnostic sits, in terms both sides share: matched nodes and edges get the earlier side's index. */
function locator(diff: WorkflowDiff): (diagnostic: Diagnostic, side: Side) => string {
  const nodeKeys = { before: new Map<string, string>(), after: new Map<string, string>() };
  for (const node of diff.nodes) {
    const shared = node.before ? `b${node.before.index}` : `a${node.after?.index ?? -1}`;
    // Later nodes win on duplicate ids, as the official lookups do.
    if (node.before && node.before.id !== null) nodeKeys.before.set(node.before.id, shared);
    if (node.after && node.after.id !== null) nodeKeys.after.set(node.after.id, shared);
  }
  const edgeKeys = { before: new Map<number, string>(), after: new Map<number, string>() };
  for (const edge of diff.edges) {
    const shared = edge.before ? `b${edge.before.index}` : `a${edge.after?.index ?? -1}`;
    if (edge.before) edgeKeys.before.set(edge.before.index, shared);
    if (edge.after) edgeKeys.after.set(edge.after.index, shared);
  }
  return (diagnostic, side) => {
    const location = diagnostic.location;
    const parts = [diagnostic.code, location?.field ?? ""];
    if (location?.nodeId !== undefined) parts.push(`n:${nodeKeys[side].get(location.nodeId) ?? `id:${location.nodeId}`}`);
    if (location?.edgeIndex !== undefined) parts.push(`e:${edgeKeys[side].get(location.edgeIndex) ?? `i:${location.edgeIndex}`}`);
    // Only the top-level param key: deeper indices shift when list entries are inserted.
    if (location?.paramPath?.length) parts.push(`p:${String(location.paramPath[0])}`);
    return parts.join("|");
  };
}

function unmatched(from: readonly Diagnostic[], fromSide: Side, against: readonly Diagnostic[], againstSide: Side, key: (d: Diagnostic, side: Side) => string): Diagnostic[] {
  const counts = new Map<string, number>();
  for (const diagnostic of against) {
    const k = key(diagnostic, againstSide);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return from.filter((diagnostic) => {
    const k = key(diagnostic, fromSide);
    const left = counts.get(k) ?? 0;
    if (left > 0) {
      counts.set(k, left - 1);
      return false;
    }
    return true;
  });
}

export function findRegressions(before: ScoredResponse, after: ScoredResponse, options: RegressionOptions = {}): RegressionReport {
  const diff =
    options.diff ??
    diffWorkflows(
      { workflow: before.parsed.json.ok ? before.parsed.json.value : null },
      { workflow: after.parsed.json.ok ? after.parsed.json.value : null },
    );
  const key = locator(diff);
  const valuesBefore = checkValues(before, options.beforeTurn);
  const valuesAfter = checkValues(after, options.afterTurn);
  const checks = REGRESSION_CHECKS.map((check): CheckComparison => {
    const b = valuesBefore[check];
    const a = valuesAfter[check];
    return { check, label: CHECK_LABELS[check], before: b, after: a, regressed: b === true && a === false, fixed: b === false && a === true };
  });
  return {
    newDiagnostics: unmatched(after.diagnostics, "after", before.diagnostics, "before", key),
    resolvedDiagnostics: unmatched(before.diagnostics, "before", after.diagnostics, "after", key),
    checks,
    regressions: checks.filter((check) => check.regressed),
  };
}
