// Deterministic stand-in for the official step_1_4 LLM judge: key nodes declared, declared set == used set.
// Pure and total over any parsed workflow value; reproduces ~95% of the recorded LLM verdicts (docs/rule-judge.md).

import type { NodeTypeId } from "./node-types";
import { parseNodeSelection, type DeclaredNode, type NodeSelectionParse, type UnmappedFragment } from "./node-selection";
import { isArray } from "./python-values";

export interface RuleJudgeInput {
  /** The `<node_selection>` text (null when the tag was missing). */
  nodeSelection: string | null | undefined;
  /** The parsed workflow JSON value (any shape). */
  workflow: unknown;
  /** The turn's key nodes (`related_nodes`). */
  keyNodes: readonly string[];
}

export interface RuleJudgeResult {
  verdict: boolean;
  /** Key node types the selection does not declare (Rule 1). */
  missingKeyNodes: string[];
  /** Types used in nodes_info that the selection does not declare (Rule 2b). */
  undeclaredUsed: string[];
  /** Declared types no node uses (Rule 2b). */
  declaredUnused: NodeTypeId[];
  /** Selection fragments that named no node type. */
  unmapped: UnmappedFragment[];
  /** The declared set, in order of first mention. */
  declared: NodeTypeId[];
  /** Where each declared type was mentioned in the node_selection text. */
  mentions: DeclaredNode[];
  /** The used set (distinct `nodes_info[*].type` strings), in workflow order. */
  used: string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Distinct types a workflow uses before their list is indexed by a set (real workflows use fewer: no set to build). */
const FEW_TYPES = 16;

/** Distinct string `type` values of `nodes_info`, in order; anything malformed is skipped. */
export function usedNodeTypes(workflow: unknown): string[] {
  if (!isRecord(workflow) || !Array.isArray(workflow.nodes_info)) return [];
  const used: string[] = [];
  // Indexed once the list grows past FEW_TYPES, so that thousands of distinct made-up types stay linear.
  let seen: Set<string> | null = null;
  const nodes: unknown[] = workflow.nodes_info;
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i];
    const type: unknown = typeof node === "object" && node !== null ? (node as Record<string, unknown>).type : undefined;
    if (typeof type !== "string" || isArray(node) || (seen ? seen.has(type) : used.includes(type))) continue;
    used.push(type);
    if (seen) seen.add(type);
    else if (used.length > FEW_TYPES) seen = new Set(used);
  }
  return used;
}

/**
 * `values.filter((v) => !others.includes(v))` without a callback per value. One side is always the declared types (at
 * most one per node type), so the work stays linear in the other.
 */
function notIn<T extends string>(values: readonly T[], others: readonly string[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < values.length; i += 1) if (!others.includes(values[i] as T)) out.push(values[i] as T);
  return out;
}

/** The turn's key nodes the selection does not declare, each once (key nodes are a few, from the benchmark). */
function missingKeys(keyNodes: readonly string[], declared: readonly string[]): string[] {
  const missing: string[] = [];
  for (let i = 0; i < keyNodes.length; i += 1) {
    const key = keyNodes[i] as string;
    if (!declared.includes(key) && !missing.includes(key)) missing.push(key);
  }
  return missing;
}

export function ruleJudge(input: RuleJudgeInput): RuleJudgeResult {
  return judgeWithSelection(parseNodeSelection(input.nodeSelection), input.workflow, input.keyNodes);
}

/** The node_selection parse a judge result was made from: another workflow judged against the same text reuses it. */
export function selectionOf(result: RuleJudgeResult): NodeSelectionParse {
  return { mentions: result.mentions, types: result.declared, unmapped: result.unmapped };
}

/** ruleJudge with the node_selection already parsed (a repaired workflow keeps its response's selection text). */
export function judgeWithSelection(selection: NodeSelectionParse, workflow: unknown, keyNodes: readonly string[]): RuleJudgeResult {
  const declared = selection.types;
  const used = usedNodeTypes(workflow);
  const missingKeyNodes = missingKeys(keyNodes, declared);
  const undeclaredUsed = notIn(used, declared);
  const declaredUnused = notIn(declared, used);
  return {
    verdict: missingKeyNodes.length === 0 && undeclaredUsed.length === 0 && declaredUnused.length === 0,
    missingKeyNodes,
    undeclaredUsed,
    declaredUnused,
    unmapped: selection.unmapped,
    declared,
    mentions: selection.mentions,
    used,
  };
}


// ---------------------------------------------------------------------------------------------------------------
// Agreement with recorded LLM verdicts (used by scripts/judge-agreement.ts and the corpus test).

/** Rows: the rule judge; columns: the recorded LLM verdict. */
export interface ConfusionMatrix {
  tt: number;
  tf: number;
  ft: number;
  ff: number;
}

export function emptyMatrix(): ConfusionMatrix {
  return { tt: 0, tf: 0, ft: 0, ff: 0 };
}

export function addVerdictPair(matrix: ConfusionMatrix, rule: boolean, llm: boolean): void {
  if (rule && llm) matrix.tt += 1;
  else if (rule) matrix.tf += 1;
  else if (llm) matrix.ft += 1;
  else matrix.ff += 1;
}

export function matrixTotal(matrix: ConfusionMatrix): number {
  return matrix.tt + matrix.tf + matrix.ft + matrix.ff;
}

/** Share of agreeing verdicts; 1 for an empty matrix (nothing disagrees). */
export function agreementRate(matrix: ConfusionMatrix): number {
  const total = matrixTotal(matrix);
  return total === 0 ? 1 : (matrix.tt + matrix.ff) / total;
}

export const DISAGREEMENT_KINDS = [
  "naming-strictness",
  "misspelling-accepted",
  "logical-consistency",
  "llm-rejected-other",
  "iteration-start-lenient",
  "delta-selection",
  "llm-accepted-other",
] as const;
export type DisagreementKind = (typeof DISAGREEMENT_KINDS)[number];

// A recorded reason that says Rule 2a (logical consistency) failed; the rule judge cannot see that rule.
const LOGIC_VIOLATION =
  /rule\s*2\s*\(?a\)?[^.\n]{0,40}\b(?:violat|fail|not (?:be )?satisf|broken)|logical(?:ly)? inconsisten|violat\w{0,20}\s+(?:of\s+)?(?:rule\s*)?2\s*\(?a/i;
/** The older judge note ("case does not matter" only) that the recorded verdicts were produced under (§5.3). */
export const OLD_JUDGE_WORDING = /no need to distinguish between uppercase and lowercase/i;

/** True when a mention names its type other than by its id (up to case); "Template" is covered by the judge note. */
function strictJudgeWouldReject(result: RuleJudgeResult): boolean {
  return result.mentions.some(
    (mention) => mention.form !== "id" && !(mention.type === "template-transform" && mention.form === "display"),
  );
}

/** Why the rule judge and a recorded LLM verdict differ; null when they agree. */
export function classifyDisagreement(
  result: RuleJudgeResult,
  llmVerdict: boolean,
  llmReason: string | null | undefined,
): DisagreementKind | null {
  if (result.verdict === llmVerdict) return null;
  if (result.verdict) {
    if (result.mentions.some((mention) => mention.form === "misspelling")) return "misspelling-accepted";
    if (llmReason && LOGIC_VIOLATION.test(llmReason)) return "logical-consistency";
    return strictJudgeWouldReject(result) ? "naming-strictness" : "llm-rejected-other";
  }
  const onlyIterationStart =
    result.missingKeyNodes.length === 0 &&
    result.declaredUnused.length === 0 &&
    result.undeclaredUsed.length === 1 &&
    result.undeclaredUsed[0] === "iteration-start";
  if (onlyIterationStart) return "iteration-start-lenient";
  if (result.declaredUnused.length === 0 && result.undeclaredUsed.length > 0) return "delta-selection";
  return "llm-accepted-other";
}

export const BOTH_FALSE_REASONS = [
  "key-node-missing-only",
  "key-node-missing-and-sets-differ",
  "sets-differ",
  "iteration-start-only",
] as const;
export type BothFalseReason = (typeof BOTH_FALSE_REASONS)[number];

/** For a failing rule verdict, which rule failed (the "both false" breakdown of §5.4). */
export function failureReason(result: RuleJudgeResult): BothFalseReason | null {
  if (result.verdict) return null;
  const setsDiffer = result.undeclaredUsed.length > 0 || result.declaredUnused.length > 0;
  if (result.missingKeyNodes.length > 0) return setsDiffer ? "key-node-missing-and-sets-differ" : "key-node-missing-only";
  const onlyIterationStart =
    result.declaredUnused.length === 0 && result.undeclaredUsed.length === 1 && result.undeclaredUsed[0] === "iteration-start";
  return onlyIterationStart ? "iteration-start-only" : "sets-differ";
}
