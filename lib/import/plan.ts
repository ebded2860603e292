// Turns parsed benchmark and run files into import plans: every response scored, every recorded verdict kept beside
// ours, every mismatch with the benchmark reported as a located issue. Pure; hashing is injected by the caller.
import { turnKey, type CheckPassEntry, type TaskQueries } from "../benchmark/dataset";
import { issue, type BenchmarkIssue } from "../benchmark/issues";
import { passInputMaterial, resolveInputMaterial } from "../judge/items";
import { recordLabel, type GenerationItem, type RunRecord } from "../benchmark/runs";
import { buildTurnSpecs, type TurnSpec } from "../benchmark/turn";
import { findPublishedModel } from "../published/table1";
import { err, ok, type Result } from "../result";
import { sortDomains } from "../stats/rates";
import { DIAGNOSTIC_CATEGORIES } from "../workflow/diagnostics";
import type { RuleJudgeResult } from "../workflow/rule-judge";
import { scoreResponse, type ScoredResponse } from "../workflow/score";
import { storedResponseInput } from "../workflow/response";
import { CORE_VERSION } from "../workflow/version";
import type {
  BenchmarkPlan,
  CasePlan,
  JudgeVerdictPlan,
  ModelPlan,
  PassPlan,
  ResponsePlan,
  RunOrigin,
  RunPlan,
} from "./plan-types";

/** A content hash (hex); the server passes sha256. */
export type Hasher = (text: string) => string;

export interface BenchmarkSource {
  name: string;
  sourceDir: string | null;
  queries: TaskQueries[];
  checkPass: Record<string, CheckPassEntry>;
  checkResolve: Record<string, Record<string, string>>;
  prompts: { name: string; text: string }[];
}

/** What planning a run needs to know about the benchmark it belongs to. */
export interface BenchmarkContext {
  turns: ReadonlyMap<string, TurnSpec>;
  /** Instructions per task, query1..queryN. */
  queries: ReadonlyMap<string, readonly string[]>;
  promptFingerprints: { pass: string | null; resolve: string | null };
}

export const RULE_JUDGE_ID = "rule";
export const RECORDED_JUDGE_ID = "recorded";

// -- benchmark -----------------------------------------------------------------------------------------------------

export function planBenchmark(source: BenchmarkSource, hash: Hasher): Result<BenchmarkPlan, BenchmarkIssue> {
  const issues: BenchmarkIssue[] = [];
  const turns = buildTurnSpecs(source.checkPass, source.checkResolve);
  const taskNames = new Set<string>();
  for (const task of source.queries) {
    if (taskNames.has(task.task)) issues.push(issue("dataset/query.json", task.task, "task", "the task appears twice"));
    taskNames.add(task.task);
    task.queries.forEach((_, index) => {
      const key = turnKey(task.task, index + 1);
      if (!turns.has(key)) {
        issues.push(issue("dataset/check_pass_stage.json", key, null, `missing: query.json has ${task.task} round ${index + 1}`));
      }
    });
  }
  for (const [key, turn] of turns) {
    const task = source.queries.find((candidate) => candidate.task === turn.task);
    if (!task || turn.round > task.queries.length) {
      issues.push(issue("dataset/check_pass_stage.json", key, null, `no matching instruction (query${turn.round}) in dataset/query.json`));
    }
  }
  for (const key of Object.keys(source.checkResolve)) {
    if (!turns.has(key)) issues.push(issue("dataset/check_resolve_stage.json", key, null, "not a turn of dataset/check_pass_stage.json"));
  }
  if (issues.length) return err(...issues);

  const fingerprint = hash(
    JSON.stringify({
      queries: source.queries,
      checkPass: source.checkPass,
      checkResolve: source.checkResolve,
      prompts: [...source.prompts].sort((a, b) => a.name.localeCompare(b.name)),
    }),
  );
  const domains = sortDomains(new Set(source.queries.map((task) => task.category)));
  return ok({
    name: source.name,
    version: fingerprint.slice(0, 12),
    fingerprint,
    sourceDir: source.sourceDir,
    domains: domains.map((name, position) => ({ name, position })),
    tasks: source.queries.map((task) => ({
      externalId: task.id,
      name: task.task,
      domain: task.category,
      roundCount: task.queries.length,
    })),
    turns: source.queries.flatMap((task) =>
      task.queries.map((instruction, index) => {
        const key = turnKey(task.task, index + 1);
        const turn = turns.get(key)!;
        return {
          task: task.task,
          round: index + 1,
          key,
          instruction,
          inputVars: turn.inputVars,
          outputVars: turn.outputVars,
          keyNodes: turn.keyNodes,
          fileChecks: turn.fileChecks,
          tests: turn.tests.map((test, testIndex) => ({
            position: testIndex + 1,
            inputs: test.inputs,
            groundTruth: test.groundTruth,
          })),
        };
      }),
    ),
    prompts: source.prompts.map((prompt) => ({ ...prompt, fingerprint: hash(prompt.text) })),
  });
}

export function benchmarkContext(source: BenchmarkSource, hash: Hasher): BenchmarkContext {
  const prompt = (name: string) => source.prompts.find((candidate) => candidate.name === name);
  const passPrompt = prompt("evaluation_pass_system");
  const resolvePrompt = prompt("evaluation_resolve_system");
  return {
    turns: buildTurnSpecs(source.checkPass, source.checkResolve),
    queries: new Map(source.queries.map((task) => [task.task, task.queries])),
    promptFingerprints: {
      pass: passPrompt ? hash(passPrompt.text) : null,
      resolve: resolvePrompt ? hash(resolvePrompt.text) : null,
    },
  };
}

// -- models --------------------------------------------------------------------------------------------------------

/** A model named by a run file (e.g. "gpt_5d2"), described from the published table when it is listed there. */
export function describeModel(name: string): ModelPlan {
  const published = findPublishedModel(name);
  if (!published) return { name, displayName: name, family: null, access: null, provider: null };
  return {
    name,
    displayName: published.displayName,
    family: published.family,
    access: published.access,
    provider: published.provider,
  };
}

// -- verdicts ------------------------------------------------------------------------------------------------------

export function explainRuleJudge(result: RuleJudgeResult): string {
  if (result.verdict) return "Every key node is declared, and the declared node types equal the types the workflow uses.";
  const parts: string[] = [];
  if (result.missingKeyNodes.length) parts.push(`Key nodes not declared in node_selection: ${result.missingKeyNodes.join(", ")}.`);
  if (result.undeclaredUsed.length) parts.push(`Used in the workflow but not declared: ${result.undeclaredUsed.join(", ")}.`);
  if (result.declaredUnused.length) parts.push(`Declared but not used: ${result.declaredUnused.join(", ")}.`);
  return parts.join(" ");
}

function categoryCounts(scored: ScoredResponse): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(DIAGNOSTIC_CATEGORIES.map((category) => [category, 0]));
  for (const diagnostic of scored.diagnostics) counts[diagnostic.category] = (counts[diagnostic.category] ?? 0) + 1;
  return counts;
}

function deterministicPass(scored: ScoredResponse) {
  return {
    officialFailStep: scored.officialFailStep,
    ruleJudge: scored.officialFailStep === null ? (scored.ruleJudge?.verdict ?? null) : null,
    deterministicValid: scored.passed,
    repairedFailStep: scored.repaired.failStep,
    repairedRuleJudge: scored.repaired.officialFailStep === null ? (scored.repaired.ruleJudge?.verdict ?? null) : null,
    repairs: scored.repaired.applied.map((repair) => ({ code: repair.code, description: repair.description })),
    topDiagnosticCode: scored.diagnostics[0]?.code ?? null,
    categoryCounts: categoryCounts(scored),
  };
}

/** Where recorded and deterministic verdicts part ways: at steps 1_1–1_3 ("fail-step") or at the judge ("judge"). */
export function findDisagreement(recordedFailStep: string | null, scored: ScoredResponse): string | null {
  const recordedEarly = recordedFailStep === "step_1_1" || recordedFailStep === "step_1_2" || recordedFailStep === "step_1_3";
  if (recordedEarly || scored.officialFailStep) {
    return recordedFailStep === scored.officialFailStep ? null : "fail-step";
  }
  const recordedJudge = recordedFailStep !== "step_1_4";
  const ruleJudge = scored.ruleJudge?.verdict ?? false;
  return recordedJudge === ruleJudge ? null : "judge";
}

function passJudgeInput(nodeSelection: string | null, designPrinciple: string | null, workflow: string | null, turn: TurnSpec) {
  return passInputMaterial(nodeSelection, designPrinciple, workflow, turn.keyNodes);
}

function ruleJudgeVerdict(scored: ScoredResponse, inputFingerprint: string): JudgeVerdictPlan | null {
  if (scored.officialFailStep !== null || !scored.ruleJudge) return null;
  return {
    stage: "pass",
    casePosition: 0,
    judge: RULE_JUDGE_ID,
    promptFingerprint: `rule-judge@${CORE_VERSION}`,
    inputFingerprint,
    reason: explainRuleJudge(scored.ruleJudge),
    verdict: scored.ruleJudge.verdict,
    rawOutput: null,
  };
}

// -- recorded runs -------------------------------------------------------------------------------------------------

const TEST_POSITIONS = [1, 2, 3] as const;

function recordedCases(record: RunRecord, turn: TurnSpec): CasePlan[] {
  if (!record.valid) return [];
  const needsFiles = Object.keys(turn.fileChecks).length > 0;
  return TEST_POSITIONS.map((position) => {
    const verdict = record[`test${position}`] === true;
    const reason = record[`llm_evaluate_reason_test${position}`];
    // A judge reason means the run and the file check succeeded; a failure without one may be either.
    const fileCheck: CasePlan["fileCheck"] = !needsFiles ? "not-required" : verdict || reason !== undefined ? "pass" : null;
    return { position, verdict, outputs: record[`llm_output_test${position}`] ?? null, fileCheck };
  });
}

function recordedResolveVerdicts(
  record: RunRecord,
  turn: TurnSpec,
  context: BenchmarkContext,
  hash: Hasher,
): JudgeVerdictPlan[] {
  if (!record.valid) return [];
  const history = (context.queries.get(record.task) ?? []).slice(0, record.round);
  const verdicts: JudgeVerdictPlan[] = [];
  for (const position of TEST_POSITIONS) {
    const reason = record[`llm_evaluate_reason_test${position}`];
    if (reason === undefined) continue;
    const test = turn.tests[position - 1];
    verdicts.push({
      stage: "resolve",
      casePosition: position,
      judge: RECORDED_JUDGE_ID,
      promptFingerprint: context.promptFingerprints.resolve,
      inputFingerprint: hash(resolveInputMaterial(history, test?.inputs ?? null, record[`llm_output_test${position}`] ?? null, test?.groundTruth ?? "")),
      reason,
      verdict: record[`test${position}`] === true,
      rawOutput: null,
    });
  }
  return verdicts;
}

export function planRecordedResponse(record: RunRecord, turn: TurnSpec, context: BenchmarkContext, hash: Hasher): ResponsePlan {
  const scored = scoreResponse(
    { nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow },
    turn,
  );
  const recordedFailStep = record.fail_step ?? null;
  const inputFingerprint = hash(passJudgeInput(record.node_selection, record.design_principle, record.workflow, turn));
  const judgeVerdicts: JudgeVerdictPlan[] = [];
  if (record.valid || recordedFailStep === "step_1_4") {
    judgeVerdicts.push({
      stage: "pass",
      casePosition: 0,
      judge: RECORDED_JUDGE_ID,
      promptFingerprint: context.promptFingerprints.pass,
      inputFingerprint,
      reason: record.reason ?? null,
      verdict: record.valid || recordedFailStep !== "step_1_4",
      rawOutput: null,
    });
  }
  const rule = ruleJudgeVerdict(scored, inputFingerprint);
  if (rule) judgeVerdicts.push(rule);
  judgeVerdicts.push(...recordedResolveVerdicts(record, turn, context, hash));
  const pass: PassPlan = {
    valid: record.valid,
    failStep: recordedFailStep,
    verdictSource: "recorded",
    recordedValid: record.valid,
    recordedFailStep,
    disagreement: findDisagreement(recordedFailStep, scored),
    ...deterministicPass(scored),
  };
  return {
    turnKey: turnKey(record.task, record.round),
    rawText: null,
    nodeSelection: record.node_selection,
    designPrinciple: record.design_principle,
    workflow: record.workflow,
    pass,
    diagnostics: scored.diagnostics,
    cases: recordedCases(record, turn),
    judgeVerdicts,
  };
}

export interface RunSource {
  /** Label for messages, e.g. "runs/gpt_5d2.json". */
  file: string;
  model: ModelPlan;
  label: string;
}

/** Problems that make a recorded run unimportable into this benchmark (checked before anything is scored). */
export function checkRecordedRun(source: RunSource, records: readonly RunRecord[], context: BenchmarkContext): BenchmarkIssue[] {
  const issues: BenchmarkIssue[] = [];
  records.forEach((record, index) => {
    if (!context.turns.has(turnKey(record.task, record.round))) {
      issues.push(
        issue(source.file, recordLabel(record, index), "task", `${record.task} round ${record.round} is not a turn of the benchmark`),
      );
    }
  });
  if (records.length === 0) issues.push(issue(source.file, null, null, "the run has no records"));
  if (records.length > 1 && issues.length === records.length) {
    return [issue(source.file, null, null, `none of its ${records.length} records is a turn of the benchmark; was the run imported into the right benchmark?`)];
  }
  return issues;
}

export function planRecordedRun(
  source: RunSource,
  records: readonly RunRecord[],
  context: BenchmarkContext,
  hash: Hasher,
  onResponse?: () => void,
): Result<RunPlan, BenchmarkIssue> {
  const issues = checkRecordedRun(source, records, context);
  if (issues.length) return err(...issues);
  const responses = records.map((record) => {
    const plan = planRecordedResponse(record, context.turns.get(turnKey(record.task, record.round))!, context, hash);
    onResponse?.();
    return plan;
  });
  return ok(runPlan(source, "recorded", hash(JSON.stringify(records)), responses, true));
}

// -- raw generation output -----------------------------------------------------------------------------------------

/** Scores one raw answer of generation output exactly as an import of the response file would (live scoring reuses it). */
export function planGeneratedResponse(task: string, round: number, raw: string, turn: TurnSpec, hash: Hasher): ResponsePlan {
  const scored = scoreResponse({ raw }, turn);
  const { nodeSelection, designPrinciple, workflowText } = scored.parsed;
  const inputFingerprint = hash(passJudgeInput(nodeSelection, designPrinciple, workflowText, turn));
  const rule = ruleJudgeVerdict(scored, inputFingerprint);
  const pass: PassPlan = {
    valid: scored.passed,
    failStep: scored.failStep,
    verdictSource: "deterministic",
    recordedValid: null,
    recordedFailStep: null,
    disagreement: null,
    ...deterministicPass(scored),
  };
  return {
    turnKey: turnKey(task, round),
    rawText: raw,
    nodeSelection,
    designPrinciple,
    workflow: workflowText,
    pass,
    diagnostics: scored.diagnostics,
    cases: [],
    judgeVerdicts: rule ? [rule] : [],
  };
}

/** Problems that make a generation file unimportable into this benchmark (checked before anything is scored). */
export function checkGenerationRun(source: RunSource, items: readonly GenerationItem[], context: BenchmarkContext): BenchmarkIssue[] {
  const issues: BenchmarkIssue[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    for (const answer of item.answers) {
      const key = turnKey(item.task, answer.round);
      if (!context.turns.has(key)) {
        issues.push(issue(source.file, item.task, answer.key, `${item.task} round ${answer.round} is not a turn of the benchmark`));
      } else if (seen.has(key)) {
        issues.push(issue(source.file, item.task, answer.key, `a second answer for ${key}`));
      }
      seen.add(key);
    }
  }
  if (seen.size === 0) issues.push(issue(source.file, null, null, "the file has no answers"));
  return issues;
}

export function planGenerationRun(
  source: RunSource,
  items: readonly GenerationItem[],
  context: BenchmarkContext,
  hash: Hasher,
  onResponse?: () => void,
): Result<RunPlan, BenchmarkIssue> {
  const issues = checkGenerationRun(source, items, context);
  if (issues.length) return err(...issues);
  const responses = items.flatMap((item) =>
    item.answers.map((answer) => {
      const plan = planGeneratedResponse(item.task, answer.round, answer.text, context.turns.get(turnKey(item.task, answer.round))!, hash);
      onResponse?.();
      return plan;
    }),
  );
  return ok(runPlan(source, "imported", hash(JSON.stringify(items)), responses, false));
}

export function runPlan(source: RunSource, origin: RunOrigin, contentHash: string, responses: ResponsePlan[], hasResolve: boolean): RunPlan {
  responses.sort((a, b) => a.turnKey.localeCompare(b.turnKey));
  return {
    model: source.model,
    label: source.label,
    origin,
    contentHash,
    sourceFile: source.file,
    coreVersion: CORE_VERSION,
    hasResolve,
    responses,
  };
}

/** Whether a parsed JSON file looks like raw generation output rather than a recorded run. */
export function isGenerationFile(data: unknown): boolean {
  if (!Array.isArray(data) || data.length === 0) return false;
  const first: unknown = data[0];
  return typeof first === "object" && first !== null && Object.keys(first).some((key) => key.startsWith("answer"));
}

// -- re-scoring ----------------------------------------------------------------------------------------------------

export interface StoredResponse {
  rawText: string | null;
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
  recordedValid: boolean | null;
  recordedFailStep: string | null;
}

/** The deterministic part of a stored response's verdict, recomputed with the current core; recorded parts kept. */
export function rescoreResponse(
  stored: StoredResponse,
  turn: TurnSpec,
  hash: Hasher,
): { pass: PassPlan; diagnostics: ResponsePlan["diagnostics"]; ruleVerdict: JudgeVerdictPlan | null } {
  const scored = scoreResponse(storedResponseInput(stored), turn);
  const inputFingerprint = hash(passJudgeInput(stored.nodeSelection, stored.designPrinciple, stored.workflow, turn));
  const recorded = stored.recordedValid !== null;
  const pass: PassPlan = {
    valid: recorded ? stored.recordedValid! : scored.passed,
    failStep: recorded ? stored.recordedFailStep : scored.failStep,
    verdictSource: recorded ? "recorded" : "deterministic",
    recordedValid: stored.recordedValid,
    recordedFailStep: stored.recordedFailStep,
    disagreement: recorded ? findDisagreement(stored.recordedFailStep, scored) : null,
    ...deterministicPass(scored),
  };
  return { pass, diagnostics: scored.diagnostics, ruleVerdict: ruleJudgeVerdict(scored, inputFingerprint) };
}
