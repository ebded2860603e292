// Scores one response against its turn (official steps 1_1–1_3, the rule judge, the full analysis, the verdicts
// after repairs); never throws, every failure explained by a diagnostic.

import type { TurnSpec } from "../benchmark/turn";
import { analyzeWorkflow } from "./analyze";
import { convertWorkflow, type Conversion } from "./convert";
import type { Diagnostic, DiagnosticLocation, OfficialStep, ResponseField } from "./diagnostics";
import { officialFailStepOf, officialVerdict, type VerdictStep } from "./official-verdict";
import { isJsonObject, ownValue, type JsonValue } from "./python-values";
import { repairOutcome, type Repair } from "./repair";
import { parseResponse, type ParsedResponse, type ResponseInput } from "./response";
import { judgeWithSelection, ruleJudge, selectionOf, type RuleJudgeResult } from "./rule-judge";

export type ScoreTurn = Pick<TurnSpec, "inputVars" | "outputVars" | "keyNodes">;

export interface RepairedScore {
  applied: Repair[];
  officialFailStep: VerdictStep | null;
  ruleJudge: RuleJudgeResult | null;
  /** The step the official pipeline would record after the repairs (step_1_4 = rule judge), or null. */
  failStep: OfficialStep | null;
  passed: boolean;
}

export interface ScoredResponse {
  parsed: ParsedResponse;
  /** The first official step (1_1–1_3) that fails; null when the response reaches step 1_4. */
  officialFailStep: VerdictStep | null;
  /** The official verdict's own explanation (parse problems, the first conversion error, or step 1_3 mismatches). */
  officialDiagnostics: Diagnostic[];
  /** The Dify graph the official converter builds; null when conversion (or parsing) fails. */
  conversion: Conversion | null;
  /** The rule judge (step 1_4), computed whenever the workflow JSON parses, whatever steps 1_1–1_3 say. */
  ruleJudge: RuleJudgeResult | null;
  /** The step the official pipeline would record: officialFailStep, else step_1_4 when the rule judge fails. */
  failStep: OfficialStep | null;
  passed: boolean;
  /** Every problem found: parse, analysis and official diagnostics, deduplicated and sorted. */
  diagnostics: Diagnostic[];
  repaired: RepairedScore;
}

function judgeOf(parsed: ParsedResponse, turn: ScoreTurn): RuleJudgeResult | null {
  if (!parsed.json.ok) return null;
  return ruleJudge({ nodeSelection: parsed.nodeSelection, workflow: parsed.json.value, keyNodes: turn.keyNodes });
}

function recordedStep(officialFailStep: VerdictStep | null, judge: RuleJudgeResult | null): OfficialStep | null {
  if (officialFailStep) return officialFailStep;
  return judge && !judge.verdict ? "step_1_4" : null;
}

// -- merging and ordering ------------------------------------------------------------------------------------------

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;
const FIELD_RANK: Readonly<Record<ResponseField, number>> = { raw: 0, node_selection: 1, design_principle: 2, workflow: 3 };

function anchorOf(location: DiagnosticLocation | undefined): string {
  if (!location) return "";
  return `${location.nodeId ?? ""}|${location.edgeIndex ?? ""}|${location.paramPath?.[0] ?? ""}`;
}

function locationKey(diagnostic: Diagnostic): string {
  return JSON.stringify(diagnostic.location ?? null);
}

/** Up to this many pairs, merging compares diagnostics pairwise instead of building a key per diagnostic. */
const PAIRWISE_MERGE_LIMIT = 64;

function coversOfficial(primary: Diagnostic, official: Diagnostic): boolean {
  return primary.officialStep !== undefined && primary.officialStep === official.officialStep && anchorOf(primary.location) === anchorOf(official.location);
}

function sameDiagnostic(a: Diagnostic, b: Diagnostic): boolean {
  return a.code === b.code && a.message === b.message && locationKey(a) === locationKey(b);
}

/** Whether an analysis diagnostic in `primary` already explains `official` (see mergeDiagnostics). */
function isCovered(primary: readonly Diagnostic[], official: Diagnostic): boolean {
  for (let i = 0; i < primary.length; i += 1) if (coversOfficial(primary[i] as Diagnostic, official)) return true;
  return false;
}

/** What tells apart two diagnostics with the same message. */
const codeAndLocation = (diagnostic: Diagnostic): string => `${diagnostic.code}\u0000${locationKey(diagnostic)}`;

/**
 * The union of the analysis and the official diagnostics. An official diagnostic is dropped when an analysis
 * diagnostic already explains the same step at the same place (same node/edge and top-level param key).
 * Exact duplicates (same code, location and message) are kept once.
 */
export function mergeDiagnostics(primary: readonly Diagnostic[], official: readonly Diagnostic[]): Diagnostic[] {
  let candidates = primary;
  if (official.length > 0 && primary.length * official.length <= PAIRWISE_MERGE_LIMIT) {
    const kept = primary.slice();
    for (const d of official) if (!isCovered(primary, d)) kept.push(d);
    candidates = kept;
  } else if (official.length > 0) {
    const covered = new Set(primary.filter((d) => d.officialStep).map((d) => `${d.officialStep}#${anchorOf(d.location)}`));
    candidates = [...primary, ...official.filter((d) => !covered.has(`${d.officialStep}#${anchorOf(d.location)}`))];
  }
  // Most responses have a few diagnostics: compared pairwise, with keys only for a same code and message.
  if (candidates.length * candidates.length <= PAIRWISE_MERGE_LIMIT) {
    const merged: Diagnostic[] = [];
    for (const diagnostic of candidates) {
      let duplicate = false;
      for (let i = 0; i < merged.length && !duplicate; i += 1) duplicate = sameDiagnostic(merged[i] as Diagnostic, diagnostic);
      if (!duplicate) merged.push(diagnostic);
    }
    return merged;
  }
  // Grouped by message (a response with thousands of nodes has thousands of diagnostics); the code and the location's
  // JSON are compared only within a message shared by two or more.
  const byMessage = new Map<string, { first: Diagnostic; seen: Set<string> | null }>();
  const merged: Diagnostic[] = [];
  for (const diagnostic of candidates) {
    const group = byMessage.get(diagnostic.message);
    if (group === undefined) {
      byMessage.set(diagnostic.message, { first: diagnostic, seen: null });
      merged.push(diagnostic);
      continue;
    }
    group.seen ??= new Set([codeAndLocation(group.first)]);
    const key = codeAndLocation(diagnostic);
    if (group.seen.has(key)) continue;
    group.seen.add(key);
    merged.push(diagnostic);
  }
  return merged;
}

/** Element by element (numbers before strings), then shorter first. */
function comparePaths(a: readonly (string | number)[] = [], b: readonly (string | number)[] = []): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i] as string | number;
    const y = b[i] as string | number;
    if (x === y) continue;
    if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

interface SortEntry {
  diagnostic: Diagnostic;
  index: number;
  severity: number;
  location: DiagnosticLocation | undefined;
  /** Field, node and edge ranks of the location (unused when it has none). */
  field: number;
  node: number;
  edge: number;
}

function sortEntry(diagnostic: Diagnostic, index: number, nodeOrder: ReadonlyMap<string, number>): SortEntry {
  const location = diagnostic.location;
  const entry: SortEntry = { diagnostic, index, severity: SEVERITY_RANK[diagnostic.severity], location, field: 0, node: 0, edge: 0 };
  if (location) {
    entry.field = FIELD_RANK[location.field ?? "workflow"] ?? 3;
    entry.node = location.nodeId === undefined ? -1 : (nodeOrder.get(location.nodeId) ?? Number.MAX_SAFE_INTEGER);
    entry.edge = location.edgeIndex ?? -1;
  }
  return entry;
}

/** Global problems (no location) first, then by field, node order, edge, param path and text offset. */
function compareLocations(x: SortEntry, y: SortEntry): number {
  const a = x.location;
  const b = y.location;
  if (!a || !b) return a ? 1 : b ? -1 : 0;
  if (x.field !== y.field) return x.field - y.field;
  if (x.node !== y.node) return x.node - y.node;
  if (x.edge !== y.edge) return x.edge - y.edge;
  const path = comparePaths(a.paramPath, b.paramPath);
  if (path !== 0) return path;
  return (a.offset ?? -1) - (b.offset ?? -1);
}

/** Errors first, then warnings, then info; within a severity, global problems first, then by place. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[], nodeOrder: ReadonlyMap<string, number> = new Map()): Diagnostic[] {
  if (diagnostics.length < 2) return diagnostics.slice();
  return diagnostics
    .map((diagnostic, index) => sortEntry(diagnostic, index, nodeOrder))
    .sort((x, y) => x.severity - y.severity || compareLocations(x, y) || x.index - y.index)
    .map((entry) => entry.diagnostic);
}

const NO_NODE_ORDER: ReadonlyMap<string, number> = new Map();

/** `merged` sorted; the workflow's node order is read only when two or more diagnostics sit on nodes. */
function sortedDiagnostics(merged: Diagnostic[], parsed: ParsedResponse): Diagnostic[] {
  if (merged.length < 2) return merged;
  let onNodes = 0;
  for (const d of merged) if (d.location?.nodeId !== undefined) onNodes += 1;
  return sortDiagnostics(merged, onNodes > 1 && parsed.json.ok ? nodeOrderOf(parsed.json.value) : NO_NODE_ORDER);
}

export function nodeOrderOf(value: JsonValue | undefined): Map<string, number> {
  const order = new Map<string, number>();
  const nodes = isJsonObject(value) ? ownValue(value, "nodes_info") : undefined;
  if (!Array.isArray(nodes)) return order;
  for (let index = 0; index < nodes.length; index += 1) {
    const node = nodes[index];
    const id = isJsonObject(node) ? ownValue(node, "id") : undefined;
    if (typeof id === "string" && !order.has(id)) order.set(id, index);
  }
  return order;
}

// -- repairs -------------------------------------------------------------------------------------------------------

const SELECTION_ONLY: ReadonlySet<string> = new Set(["sync-node-selection"]);

interface OriginalScore {
  officialFailStep: VerdictStep | null;
  judge: RuleJudgeResult | null;
  /** Whether the analysis found a node listed before something it reads; undefined when it could not analyse. */
  forwardReferences: boolean | undefined;
}

const ORDER_CODES: ReadonlySet<string> = new Set(["forward-reference", "child-parent-missing"]);

function scoreRepaired(parsed: ParsedResponse, turn: ScoreTurn, original: OriginalScore): RepairedScore {
  const outcome = repairOutcome(parsed, { judge: original.judge, forwardReferences: original.forwardReferences });
  const { applied } = outcome;
  let officialFailStep = original.officialFailStep;
  let judge = original.judge;
  if (applied.length > 0) {
    // A changed node_selection cannot change steps 1_1–1_3; only re-run them when the workflow changed.
    const workflowChanged = applied.some((repair) => !SELECTION_ONLY.has(repair.code));
    if (outcome.value === null) {
      const reparsed = parseResponse({ nodeSelection: outcome.nodeSelection, designPrinciple: outcome.designPrinciple, workflow: outcome.workflowText });
      if (workflowChanged) officialFailStep = officialVerdict(reparsed, turn, { graph: false }).failStep;
      judge = judgeOf(reparsed, turn);
    } else {
      // The repaired object is what parsing its serialisation would give back (with no float literals), so it is
      // judged directly: steps 1_2–1_3 without building the Dify graph, and the rule judge.
      if (workflowChanged) officialFailStep = officialFailStepOf(outcome.value, turn);
      // The same node_selection text parses the same: only the workflow side of the judge is redone.
      judge =
        original.judge && outcome.nodeSelection === parsed.nodeSelection
          ? judgeWithSelection(selectionOf(original.judge), outcome.value, turn.keyNodes)
          : ruleJudge({ nodeSelection: outcome.nodeSelection, workflow: outcome.value, keyNodes: turn.keyNodes });
    }
  }
  const failStep = recordedStep(officialFailStep, judge);
  return { applied, officialFailStep, ruleJudge: judge, failStep, passed: failStep === null };
}

// -- entry point ---------------------------------------------------------------------------------------------------

export function scoreResponse(input: ResponseInput, turn: ScoreTurn): ScoredResponse {
  const parsed = parseResponse(input);
  // The verdict needs only the conversion's checks; the Dify graph (layout included) is built when first read,
  // since most callers (the score report, imports) never read it.
  const verdict = officialVerdict(parsed, turn, { graph: false });
  const converts = verdict.failStep === null || verdict.failStep === "step_1_3";
  let conversion: Conversion | null | undefined;
  const judge = judgeOf(parsed, turn);
  const variableCheck = verdict.failStep === null ? [] : verdict.failStep === "step_1_3" ? verdict.diagnostics : undefined;
  const analysis = analyzeWorkflow(parsed, turn, judge ?? undefined, variableCheck);
  const merged = mergeDiagnostics(parsed.diagnostics.length > 0 ? [...parsed.diagnostics, ...analysis] : analysis, verdict.diagnostics);
  const failStep = recordedStep(verdict.failStep, judge);
  return {
    parsed,
    officialFailStep: verdict.failStep,
    officialDiagnostics: verdict.diagnostics,
    get conversion(): Conversion | null {
      if (conversion === undefined) {
        const built = converts && parsed.json.ok ? convertWorkflow(parsed.json.value, { floats: parsed.json.floats }) : null;
        conversion = built?.ok ? built.value : null;
      }
      return conversion;
    },
    ruleJudge: judge,
    failStep,
    passed: failStep === null,
    diagnostics: sortedDiagnostics(merged, parsed),
    repaired: scoreRepaired(parsed, turn, {
      officialFailStep: verdict.failStep,
      judge,
      forwardReferences: parsed.json.ok ? analysis.some((d) => ORDER_CODES.has(d.code)) : undefined,
    }),
  };
}
