// Everything the response page shows about one stored response, recomputed from its text with the scoring core as
// plain data safe to send to a client.

import { explainRuleJudge } from "../import/plan";
import { convertToCoze } from "../workflow/coze-convert";
import { buildDifyDsl } from "../workflow/dify-dsl";
import { toDifyYaml } from "../workflow/dify-yaml";
import { DIAGNOSTIC_CATEGORIES, type Diagnostic, type DiagnosticCategory, type OfficialStep } from "../workflow/diagnostics";
import { repairResponse, type Repair } from "../workflow/repair";
import { storedResponseInput, type ParsedResponse } from "../workflow/response";
import { scoreResponse, type ScoreTurn, type ScoredResponse } from "../workflow/score";
import { layoutWorkflowView, type LaidOutView } from "./layout";
import { buildWorkflowView, type ViewDiagnostic } from "./model";

export interface ResponseViewInput {
  /** The raw answer (generation-format imports); when set it is what gets scored. */
  rawText: string | null;
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
  turn: ScoreTurn;
  /** The Dify app name, `<Task>_<round>`. */
  appName: string;
}

export interface RuleJudgeView {
  verdict: boolean;
  explanation: string;
  missingKeyNodes: string[];
  undeclaredUsed: string[];
  declaredUnused: string[];
}

export interface GraphVersion {
  /** The graph with its diagnostics anchored (null when there is nothing to draw). */
  view: LaidOutView | null;
  prettyJson: string | null;
  /** Dify DSL YAML, when the official conversion succeeds. */
  yaml: string | null;
  /** Why there is no YAML. */
  yamlMissingReason: string | null;
  /** The graph has more nodes than are drawn (MAX_DRAWN_NODES): `view` is null. */
  tooLargeToDraw?: boolean;
}

export interface RepairedVersion extends GraphVersion {
  applied: Repair[];
  officialFailStep: OfficialStep | null;
  failStep: OfficialStep | null;
  passed: boolean;
}

/** Whether the official Coze converter would convert the response (the package itself is built on download). */
export interface CozeAvailability {
  /** `Workflow-<Task>_<round>-draft.zip` when it converts. */
  fileName: string | null;
  /** Why there is no package (the first condition the Coze converter fails on), when there is none. */
  missingReason: string | null;
}

export interface ResponseView {
  source: "raw" | "record";
  texts: {
    raw: string | null;
    nodeSelection: string | null;
    designPrinciple: string | null;
    /** The cleaned workflow text that is parsed (positions of workflow diagnostics refer to it). */
    workflow: string | null;
  };
  /** Whether the workflow JSON parses. */
  parses: boolean;
  officialFailStep: OfficialStep | null;
  failStep: OfficialStep | null;
  passed: boolean;
  ruleJudge: RuleJudgeView | null;
  /** Every diagnostic, sorted (errors first), with the anchors used to draw it. */
  diagnostics: ViewDiagnostic[];
  categoryCounts: Record<DiagnosticCategory, number>;
  original: GraphVersion;
  /** Repairs that apply, and the repaired response's verdict; the graph is filled only when the JSON did not parse. */
  repaired: RepairedVersion;
  coze: CozeAvailability;
}

function cozeAvailability(scored: ScoredResponse, appName: string): CozeAvailability {
  if (!scored.parsed.json.ok) return { fileName: null, missingReason: "The workflow JSON does not parse, so the Coze converter never runs." };
  const converted = convertToCoze(scored.parsed.json.value, appName);
  if (converted.ok) return { fileName: `Workflow-${appName}-draft.zip`, missingReason: null };
  return { fileName: null, missingReason: converted.issues[0]?.message ?? "The Coze conversion fails." };
}

function ruleJudgeView(scored: ScoredResponse): RuleJudgeView | null {
  const judge = scored.ruleJudge;
  if (!judge) return null;
  return {
    verdict: judge.verdict,
    explanation: explainRuleJudge(judge),
    missingKeyNodes: judge.missingKeyNodes,
    undeclaredUsed: judge.undeclaredUsed,
    declaredUnused: judge.declaredUnused,
  };
}

function graphVersion(scored: ScoredResponse, appName: string): GraphVersion & { diagnostics: ViewDiagnostic[] } {
  const value = scored.parsed.json.ok ? scored.parsed.json.value : undefined;
  const view = buildWorkflowView({ workflow: value, diagnostics: scored.diagnostics });
  let yaml: string | null = null;
  let yamlMissingReason: string | null = null;
  if (scored.conversion) yaml = toDifyYaml(buildDifyDsl(scored.conversion, appName));
  else yamlMissingReason = noYamlReason(scored);
  return {
    view: view.drawable ? layoutWorkflowView(view) : null,
    tooLargeToDraw: view.tooLargeToDraw,
    prettyJson: value === undefined ? null : JSON.stringify(value, null, 2),
    yaml,
    yamlMissingReason,
    diagnostics: view.diagnostics,
  };
}

function noYamlReason(scored: ScoredResponse): string {
  if (!scored.parsed.json.ok) return "The workflow JSON does not parse (step_1_1), so the official converter never runs.";
  const first: Diagnostic | undefined = scored.officialDiagnostics[0];
  return `The official conversion fails (step_1_2)${first ? `: ${first.message}` : "."}`;
}

function counts(diagnostics: readonly Diagnostic[]): Record<DiagnosticCategory, number> {
  const result = Object.fromEntries(DIAGNOSTIC_CATEGORIES.map((category) => [category, 0])) as Record<DiagnosticCategory, number>;
  for (const diagnostic of diagnostics) result[diagnostic.category] += 1;
  return result;
}

function repairedVersion(parsed: ParsedResponse, scored: ScoredResponse, input: ResponseViewInput): RepairedVersion {
  const base = {
    applied: scored.repaired.applied,
    officialFailStep: scored.repaired.officialFailStep,
    failStep: scored.repaired.failStep,
    passed: scored.repaired.passed,
  };
  const none: GraphVersion = { view: null, prettyJson: null, yaml: null, yamlMissingReason: null };
  // The repaired graph is drawn only where the original cannot be: when the JSON does not parse.
  if (parsed.json.ok || scored.repaired.applied.length === 0) return { ...base, ...none };
  const { repaired, value } = repairResponse(parsed, { judge: scored.ruleJudge });
  if (value === null) return { ...base, ...none };
  const rescored = scoreResponse(repaired, input.turn);
  const { diagnostics: _unused, ...version } = graphVersion(rescored, input.appName);
  return { ...base, ...version };
}

export function buildResponseView(input: ResponseViewInput): ResponseView {
  const scored = scoreResponse(storedResponseInput(input), input.turn);
  const parsed = scored.parsed;
  const { diagnostics, ...original } = graphVersion(scored, input.appName);
  return {
    source: parsed.source,
    texts: {
      raw: input.rawText,
      nodeSelection: parsed.nodeSelection ?? input.nodeSelection,
      designPrinciple: parsed.designPrinciple ?? input.designPrinciple,
      workflow: parsed.workflowText ?? input.workflow,
    },
    parses: parsed.json.ok,
    officialFailStep: scored.officialFailStep,
    failStep: scored.failStep,
    passed: scored.passed,
    ruleJudge: ruleJudgeView(scored),
    diagnostics,
    categoryCounts: counts(scored.diagnostics),
    original,
    repaired: repairedVersion(parsed, scored, input),
    coze: cozeAvailability(scored, input.appName),
  };
}
