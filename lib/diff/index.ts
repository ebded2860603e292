// The workflow diff's entry: two workflows or two scored responses compared, nodes matched within a type by id or
// content (match.ts has the weights); total over any input.

export { diffSideFromResponse, diffWorkflows } from "./diff";
export { MATCH_THRESHOLD } from "./match";
export { findRegressions, REGRESSION_CHECKS, type CheckComparison, type RegressionCheck, type RegressionOptions, type RegressionReport } from "./regressions";
export { textDiff } from "./text-diff";
export * from "./types";
