// Public entry of the workflow diff: compare two workflows (a model's consecutive turns, or two models on one turn)
// and two scored responses. Pure (no React, Next, Prisma or I/O); total over any input, never throws.
//
// Public API (stable):
//   diffWorkflows(before: DiffSide, after: DiffSide) -> WorkflowDiff
//     DiffSide = { workflow: unknown (the parsed workflow JSON), nodeSelection?: string | null, turn?: DiffTurn | null }
//     WorkflowDiff = { nodes: NodeDiff[], edges: EdgeDiff[], renames, selection, io, task, changes: DiffChange[],
//                      summary: DiffSummary, issues: { before, after } }
//   diffSideFromResponse(input: ResponseInput, turn?) -> DiffSide   (a raw answer or a recorded run, parsed at step 1_1)
//   findRegressions(before: ScoredResponse, after: ScoredResponse, options?) -> RegressionReport
//   textDiff(before, after) -> TextDiff                               (the line / word diff used for long params)
//   CHANGE_KINDS, REGRESSION_CHECKS, MATCH_THRESHOLD
//
// Matching: nodes pair only within one (canonical) node type; same-id pairs are preferred, renumbered ones found by
// content, references and neighbours; an optimal assignment per type (Hungarian). See match.ts for the weights.

export { diffSideFromResponse, diffWorkflows } from "./diff";
export { MATCH_THRESHOLD } from "./match";
export { findRegressions, REGRESSION_CHECKS, type CheckComparison, type RegressionCheck, type RegressionOptions, type RegressionReport } from "./regressions";
export { textDiff } from "./text-diff";
export * from "./types";
