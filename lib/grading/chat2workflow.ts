// Grading Chat2Workflow responses with a rubric: the measures a rubric's gates and criteria can name (`source`), read
// from what a run stores (pass verdict, fail step, diagnostics, repairs, test cases, judge verdicts). Pure.

import { ruleJudge } from "../workflow/rule-judge";
import type { PairwiseCounts, RawScore } from "./formulas";
import { criterionBase, criterionFromEvidence, gateFromEvidence, judgeScoreDisagreement, type ResponseEvidence } from "./evidence";
import { gradeCase, type CriterionInput, type GateInput, type GradeResult, type JudgeDisagreement } from "./grade";
import type { Rubric } from "./rubric";
import type { GradingIssue } from "./formulas";
import type { Result } from "../result";

export const GATE_MEASURES = ["format", "graph", "variable_consistency", "key_node_coverage"] as const;
export type GateMeasure = (typeof GATE_MEASURES)[number];

export const CRITERION_MEASURES = ["resolve_ratio", "judge_verdict", "diagnostics_severity", "repair_count", "latency_ms", "tokens", "retries", "pairwise"] as const;
export type CriterionMeasure = (typeof CRITERION_MEASURES)[number];

export const KNOWN_SOURCES = { gates: GATE_MEASURES, criteria: CRITERION_MEASURES };

/** Diagnostics severity measure: errors count 1, warnings 0.25, infos nothing. */
export const SEVERITY_WEIGHTS: Record<string, number> = { error: 1, warning: 0.25, info: 0 };

/** Everything the measures read about one response; built from stored rows or from a planned (file) run alike. */
export interface ResponseFacts {
  responseId: string | null;
  turnKey: string;
  /** The verdict the statistics use and its fail step ("step_1_1".."step_1_5" or null). */
  valid: boolean;
  failStep: string | null;
  nodeSelection: string | null;
  workflow: string | null;
  keyNodes: readonly string[];
  diagnostics: readonly { code: string; severity: string; message: string; officialStep: string | null }[];
  repairCount: number;
  /** Whether the run carries resolve-stage results at all. */
  hasResolve: boolean;
  testCaseCount: number;
  /** A null verdict: not judged yet. */
  cases: readonly { position: number; verdict: boolean | null }[];
  /** Pass-stage (step 1_4) verdicts by judge label: "recorded", "rule", or an LLM judge's label. */
  passJudges: readonly { judge: string; verdict: boolean; sampleIndex?: number; judgeIdentity?: string | null; promptFingerprint?: string | null }[];
  /** Generation cost, when the run recorded it. */
  latencyMs: number | null;
  tokens: number | null;
  retries: number | null;
  /** The turn's outcomes in the run's latest pairwise comparison, from this run's side; absent when never compared. */
  pairwise?: { comparisonId: string; counts: PairwiseCounts } | null;
}

/** The judge whose verdict a grading used, for the §9 log. */
export interface JudgeUse {
  judge: string;
  identity: string | null;
  promptFingerprint: string | null;
}

const STEP_OF_GATE: Record<GateMeasure, readonly string[]> = {
  format: ["step_1_1"],
  graph: ["step_1_2", "step_1_5"],
  variable_consistency: ["step_1_3"],
  key_node_coverage: [],
};

const ORDER = ["step_1_1", "step_1_2", "step_1_3", "step_1_4", "step_1_5"];

function firstDiagnosticAt(facts: ResponseFacts, step: string): string | null {
  const found = facts.diagnostics.find((diagnostic) => diagnostic.officialStep === step && diagnostic.severity === "error") ?? facts.diagnostics.find((diagnostic) => diagnostic.officialStep === step);
  return found ? `${found.code}: ${found.message}` : null;
}

function parsedWorkflow(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function measureGate(measure: GateMeasure, facts: ResponseFacts): Omit<GateInput, "name"> {
  if (measure === "key_node_coverage") {
    // Rule 1 of the pass judge, checked deterministically: every key node declared in <node_selection>.
    if (facts.nodeSelection === null) return { passed: facts.failStep === "step_1_1" ? null : false, reason: "no <node_selection> to check key nodes against" };
    const rule = ruleJudge({ nodeSelection: facts.nodeSelection, workflow: parsedWorkflow(facts.workflow), keyNodes: facts.keyNodes });
    return rule.missingKeyNodes.length === 0
      ? { passed: true, reason: `all ${facts.keyNodes.length} key node${facts.keyNodes.length === 1 ? "" : "s"} declared` }
      : { passed: false, reason: `key node${rule.missingKeyNodes.length > 1 ? "s" : ""} not declared: ${rule.missingKeyNodes.join(", ")}` };
  }
  const steps = STEP_OF_GATE[measure];
  const failIndex = facts.failStep === null ? Infinity : ORDER.indexOf(facts.failStep);
  if (facts.failStep !== null && steps.includes(facts.failStep)) {
    return { passed: false, reason: `${facts.failStep}${firstDiagnosticAt(facts, facts.failStep) ? ` — ${firstDiagnosticAt(facts, facts.failStep)}` : ""}` };
  }
  const firstStep = ORDER.indexOf(steps[0]!);
  if (failIndex < firstStep) return { passed: null, reason: `not reached: the response failed ${facts.failStep} first` };
  return { passed: true, reason: `passes ${steps.join("/")}` };
}

interface Measured {
  raw: RawScore | null;
  notApplicable?: string;
  evidence?: string;
  judge?: JudgeUse;
}

/** The pass-stage verdict by preference: an LLM judge (majority over samples), the recorded one, then the rule judge. */
function passJudgeVerdict(facts: ResponseFacts): { verdict: boolean; use: JudgeUse; samples: number } | null {
  const llm = facts.passJudges.filter((entry) => entry.judge !== "recorded" && entry.judge !== "rule");
  if (llm.length > 0) {
    const label = [...new Set(llm.map((entry) => entry.judge))].sort()[0]!;
    const samples = llm.filter((entry) => entry.judge === label);
    const yes = samples.filter((entry) => entry.verdict).length;
    if (yes * 2 !== samples.length) {
      const first = samples[0]!;
      return { verdict: yes * 2 > samples.length, use: { judge: label, identity: first.judgeIdentity ?? null, promptFingerprint: first.promptFingerprint ?? null }, samples: samples.length };
    }
  }
  for (const label of ["recorded", "rule"]) {
    const found = facts.passJudges.find((entry) => entry.judge === label);
    if (found) return { verdict: found.verdict, use: { judge: label, identity: found.judgeIdentity ?? null, promptFingerprint: found.promptFingerprint ?? null }, samples: 1 };
  }
  return null;
}

/** §5.2's "low judge disagreement": the minority share of the LLM pass verdicts (panel members and samples together). */
export const JUDGE_DISAGREEMENT_LIMIT = 0.1;

export function passJudgeDisagreement(facts: ResponseFacts): JudgeDisagreement | null {
  const llm = facts.passJudges.filter((entry) => entry.judge !== "recorded" && entry.judge !== "rule");
  if (llm.length < 2) return null;
  const yes = llm.filter((entry) => entry.verdict).length;
  const labels = new Set(llm.map((entry) => entry.judge)).size;
  return {
    value: Math.min(yes, llm.length - yes) / llm.length,
    limit: JUDGE_DISAGREEMENT_LIMIT,
    detail: `${yes} of ${llm.length} pass verdicts (${labels} judge${labels === 1 ? "" : "s"}) say pass`,
  };
}

export function measureCriterion(measure: CriterionMeasure, facts: ResponseFacts): Measured {
  switch (measure) {
    case "resolve_ratio": {
      if (!facts.hasResolve) return { raw: null, notApplicable: "the run carries no resolve-stage results" };
      const total = Math.max(facts.testCaseCount, facts.cases.length);
      if (total === 0) return { raw: null, notApplicable: "the turn has no test cases" };
      if (!facts.valid) return { raw: { passed: 0, total }, evidence: `failed the pass stage, so 0 of ${total} test cases resolve (as the official scoring counts it)` };
      const notJudged = facts.cases.filter((entry) => entry.verdict === null).length;
      if (notJudged > 0) return { raw: null, notApplicable: `${notJudged} of ${total} test cases are not judged yet` };
      const passed = facts.cases.filter((entry) => entry.verdict === true).length;
      return { raw: { passed, total }, evidence: `${passed} of ${total} test cases resolved` };
    }
    case "judge_verdict": {
      const reachedJudge = facts.failStep === null || ORDER.indexOf(facts.failStep) >= ORDER.indexOf("step_1_4");
      if (!reachedJudge) return { raw: null, notApplicable: `the workflow did not reach the step 1_4 judge (failed ${facts.failStep})` };
      const verdict = passJudgeVerdict(facts);
      if (verdict === null) return { raw: null, notApplicable: "no pass-stage judge verdict is stored" };
      return {
        raw: verdict.verdict ? 1 : 0,
        evidence: `${verdict.use.judge} judge${verdict.samples > 1 ? ` (majority of ${verdict.samples} samples)` : ""}: ${verdict.verdict ? "pass" : "fail"}`,
        judge: verdict.use,
      };
    }
    case "diagnostics_severity": {
      const counts = { error: 0, warning: 0, info: 0 } as Record<string, number>;
      for (const diagnostic of facts.diagnostics) counts[diagnostic.severity] = (counts[diagnostic.severity] ?? 0) + 1;
      const raw = facts.diagnostics.reduce((sum, diagnostic) => sum + (SEVERITY_WEIGHTS[diagnostic.severity] ?? 0), 0);
      return { raw, evidence: `${counts.error} error, ${counts.warning} warning, ${counts.info} info → ${raw}` };
    }
    case "repair_count":
      return { raw: facts.repairCount, evidence: `${facts.repairCount} mechanical repair${facts.repairCount === 1 ? "" : "s"} applicable` };
    case "latency_ms":
      return facts.latencyMs === null ? { raw: null, notApplicable: "the run records no generation latency" } : { raw: facts.latencyMs, evidence: `${facts.latencyMs} ms` };
    case "tokens":
      return facts.tokens === null ? { raw: null, notApplicable: "the run records no token counts" } : { raw: facts.tokens, evidence: `${facts.tokens} tokens` };
    case "retries":
      return facts.retries === null ? { raw: null, notApplicable: "the run records no retry counts" } : { raw: facts.retries, evidence: `${facts.retries} retries` };
    case "pairwise": {
      if (!facts.pairwise) return { raw: null, notApplicable: "the run has no judged pairwise comparison for this turn" };
      const { wins, losses, ties } = facts.pairwise.counts;
      return { raw: facts.pairwise.counts, evidence: `pairwise comparison ${facts.pairwise.comparisonId}: ${wins} won, ${losses} lost, ${ties} tied` };
    }
  }
}

export interface GradedResponse {
  facts: ResponseFacts;
  result: GradeResult;
  judges: JudgeUse[];
}

/**
 * Grades one response with any rubric: gates and criteria with a Chat2Workflow measure (`source`) read the stored
 * facts, the rest come from the response's evidence when given; what neither supplies is named as missing.
 */
export function gradeResponse(rubric: Rubric, facts: ResponseFacts, id: string = facts.responseId ?? facts.turnKey, evidence?: ResponseEvidence): Result<GradedResponse, GradingIssue> {
  const judges: JudgeUse[] = [];
  const problems: GradingIssue[] = [];
  const gates: GateInput[] = rubric.hard_gates.map((gate) => {
    if (gate.source && (GATE_MEASURES as readonly string[]).includes(gate.source)) return { name: gate.name, ...measureGate(gate.source as GateMeasure, facts) };
    const found = evidence ? gateFromEvidence(gate, evidence) : null;
    if (found && !found.ok) problems.push(...found.issues.map((message) => ({ code: "evidence-gate", message, path: ["gates", gate.name] })));
    if (found?.ok && found.value) return found.value;
    // A gate that cannot be checked must not let a response through silently.
    return { name: gate.name, passed: false, reason: "missing: no stored Chat2Workflow measurement or evidence for this gate" };
  });
  const criteria: CriterionInput[] = rubric.criteria.map((criterion) => {
    const base = criterionBase(criterion);
    if (criterion.source && (CRITERION_MEASURES as readonly string[]).includes(criterion.source)) {
      const measured = measureCriterion(criterion.source as CriterionMeasure, facts);
      if (measured.judge) judges.push(measured.judge);
      return { ...base, raw: measured.raw, ...(measured.notApplicable ? { notApplicable: measured.notApplicable } : {}), ...(measured.evidence ? { evidence: measured.evidence } : {}) };
    }
    const supplied = evidence ? criterionFromEvidence(criterion, evidence) : null;
    if (supplied) return { ...base, raw: supplied.raw, ...(supplied.notApplicable ? { notApplicable: supplied.notApplicable } : {}), ...(supplied.evidence ? { evidence: supplied.evidence } : {}) };
    return { ...base, raw: null, notApplicable: "missing: no stored Chat2Workflow measurement feeds this criterion and no evidence supplies it (a judge or human score)" };
  });
  if (problems.length > 0) return { ok: false, issues: problems };
  const disagreement = passJudgeDisagreement(facts) ?? (evidence ? judgeScoreDisagreement(rubric, evidence) : null);
  const graded = gradeCase({
    id,
    gates,
    criteria,
    pass_threshold: rubric.pass_threshold,
    sample_count: 1,
    ...(disagreement ? { judge_disagreement: disagreement } : {}),
    operations: { latency_ms: evidence?.latency_ms ?? facts.latencyMs, cost: evidence?.cost ?? null },
  });
  return graded.ok ? { ok: true, value: { facts, result: graded.value, judges } } : graded;
}

/** The weighted criteria a stored Chat2Workflow run cannot supply by itself (no `source` measure). */
export function unmeasuredCriteria(rubric: Rubric): string[] {
  return rubric.criteria.filter((criterion) => criterion.weight > 0 && !(criterion.source !== undefined && (CRITERION_MEASURES as readonly string[]).includes(criterion.source))).map((criterion) => criterion.name);
}

/** Null when the rubric can grade stored Chat2Workflow runs (with evidence, if given); else why not, naming what is missing. */
export function rubricMismatch(rubric: Rubric, withEvidence = false): string | null {
  const missing = unmeasuredCriteria(rubric);
  const weighted = rubric.criteria.filter((criterion) => criterion.weight > 0).length;
  if (missing.length < weighted || withEvidence) return null;
  return `rubric ${rubric.rubric_id} v${rubric.version}: a Chat2Workflow run supplies none of its weighted criteria (missing: ${missing.join(", ")}); give their judge or human scores in an evidence file (--evidence)`;
}
