import "server-only";
// Grading stored runs (and run files) with a rubric: rubric files from disk, the facts each response's grade reads,
// and the GradingResult rows (§9 log). Reading checks "read"; storing grades checks "import", like re-scoring.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { sha256 } from "./hash";
import { pairwiseCountsByTurn } from "./pairwise";
import { parseRunFile, parseGenerationFile } from "@/lib/benchmark/runs";
import { CASES_PER_TURN } from "@/lib/stats/rates";
import { benchmarkContext, describeModel, isGenerationFile, planGenerationRun, planRecordedRun } from "@/lib/import/plan";
import type { ResponsePlan } from "@/lib/import/plan-types";
import { gradeResponse, KNOWN_SOURCES, rubricMismatch, type GradedResponse, type JudgeUse, type ResponseFacts } from "@/lib/grading/chat2workflow";
import { formatRubricIssue, parseRubric, type Rubric } from "@/lib/grading/rubric";
import { gradeEvidenceFile, parseEvidence, type EvidenceFile, type EvidenceGrade } from "@/lib/grading/evidence";
import type { GradeResult } from "@/lib/grading/grade";
import { orderStandings, standingOf, tieBreakCriteria, type OrderedStanding, type Standing, type TieBreakCriteria } from "@/lib/grading/standings";
import { decidePromotion, type PromotionDecision, type PromotionItem, type PromotionThresholds } from "@/lib/grading/promotion";
import { err, ok, type Result } from "@/lib/result";
import { generationCost } from "@/lib/generation/generation-cost";
import type { Database } from "./db";
import { assertAllowed } from "./authz";
import { readBenchmarkDir } from "./benchmark-files";
import { cachedRead } from "./data/read-cache";
import type { SessionUser } from "./session";

export interface LoadedRubric {
  rubric: Rubric;
  file: string;
  /** sha256 of the file's text. */
  fingerprint: string;
}

/** The folder of shipped rubric files, relative to the project root the server and CLIs run from. */
export const RUBRICS_DIR = path.join(process.cwd(), "rubrics");
export const DEFAULT_RUBRIC_FILE = "chat2workflow.yaml";


/** A file's text, or why not; a file above `maxBytes` is refused before it is read. */
async function readTextFile(file: string, maxBytes = 16 * 1024 * 1024): Promise<Result<string, string>> {
  try {
    const size = (await stat(file)).size;
    if (size > maxBytes) return err(`${file}: larger than ${maxBytes / 1024 / 1024} MB`);
    return ok(await readFile(file, "utf8"));
  } catch (error) {
    return err(`${file}: cannot read: ${error instanceof Error ? error.message : String(error)}`);
  }
}

export async function loadRubricFile(file: string): Promise<Result<LoadedRubric, string>> {
  const read = await readTextFile(file);
  if (!read.ok) return read;
  const text = read.value;
  const label = path.relative(process.cwd(), file) || file;
  const parsed = parseRubric(label.startsWith("..") ? file : label, text, KNOWN_SOURCES);
  if (!parsed.ok) return err(...parsed.issues.map(formatRubricIssue));
  return ok({ rubric: parsed.value, file: label, fingerprint: sha256(text) });
}

let defaultRubric: Promise<Result<LoadedRubric, string>> | null = null;

/** The Chat2Workflow profile shipped in rubrics/, read once per process. */
export function loadDefaultRubric(): Promise<Result<LoadedRubric, string>> {
  defaultRubric ??= loadRubricFile(path.join(RUBRICS_DIR, DEFAULT_RUBRIC_FILE));
  return defaultRubric;
}

// -- facts --------------------------------------------------------------------------------------------------------

function jsonArrayLength(text: string): number {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.length : 0;
  } catch {
    return 0;
  }
}

function jsonStringArray(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];
  } catch {
    return [];
  }
}

const responseInclude = {
  turn: { select: { key: true, keyNodes: true, _count: { select: { testCases: true } } } },
  passResult: { include: { diagnostics: { orderBy: { position: "asc" as const }, select: { code: true, severity: true, message: true, officialStep: true } } } },
  caseResults: { select: { position: true, verdict: true } },
  judgeVerdicts: { where: { stage: "pass" }, select: { judge: true, verdict: true, sampleIndex: true, judgeIdentity: true, promptFingerprint: true } },
  attempts: { select: { latencyMs: true, inputTokens: true, outputTokens: true } },
} as const;

type StoredResponse = Awaited<ReturnType<typeof findResponses>>[number];

function findResponses(db: Database, where: { runId: string } | { id: string }) {
  return db.response.findMany({ where, include: responseInclude });
}

function factsOfStored(response: StoredResponse, hasResolve: boolean): ResponseFacts {
  const pass = response.passResult;
  return {
    responseId: response.id,
    turnKey: response.turn.key,
    valid: pass?.valid ?? false,
    failStep: pass ? pass.failStep : "step_1_1",
    nodeSelection: response.nodeSelection,
    workflow: response.workflow,
    keyNodes: jsonStringArray(response.turn.keyNodes),
    diagnostics: pass?.diagnostics ?? [],
    repairCount: pass ? jsonArrayLength(pass.repairs) : 0,
    hasResolve,
    testCaseCount: response.turn._count.testCases || CASES_PER_TURN,
    cases: response.caseResults,
    passJudges: response.judgeVerdicts,
    ...generationCost(response.attempts),
  };
}

function withPairwise(facts: ResponseFacts, pairwise: Awaited<ReturnType<typeof pairwiseCountsByTurn>>): ResponseFacts {
  const counts = pairwise?.byTurn.get(facts.turnKey);
  return counts ? { ...facts, pairwise: { comparisonId: pairwise!.comparisonId, counts } } : facts;
}

function factsOfPlan(plan: ResponsePlan, keyNodes: readonly string[], testCaseCount: number, hasResolve: boolean): ResponseFacts {
  return {
    responseId: null,
    turnKey: plan.turnKey,
    valid: plan.pass.valid,
    failStep: plan.pass.failStep,
    nodeSelection: plan.nodeSelection,
    workflow: plan.workflow,
    keyNodes,
    diagnostics: plan.diagnostics.map((diagnostic) => ({ code: diagnostic.code, severity: diagnostic.severity, message: diagnostic.message, officialStep: diagnostic.officialStep ?? null })),
    repairCount: plan.pass.repairs.length,
    hasResolve,
    testCaseCount,
    cases: plan.cases,
    passJudges: plan.judgeVerdicts.filter((verdict) => verdict.stage === "pass").map((verdict) => ({ judge: verdict.judge, verdict: verdict.verdict, promptFingerprint: verdict.promptFingerprint })),
    latencyMs: null,
    tokens: null,
    retries: null,
  };
}

// -- grading ------------------------------------------------------------------------------------------------------

export interface GradedRun {
  run: { id: string | null; label: string; model: string; modelDisplayName: string; benchmarkId: string | null; hasResolve: boolean };
  rubric: { id: string; version: number; title: string; fingerprint: string; file: string; tieBreak: TieBreakCriteria };
  responses: (GradedResponse & { turnKey: string })[];
}

function gradeAll(rubric: Rubric, facts: readonly ResponseFacts[], evidence?: EvidenceFile): Result<(GradedResponse & { turnKey: string })[], string> {
  const mismatch = rubricMismatch(rubric, evidence !== undefined);
  if (mismatch !== null) return err(mismatch);
  if (evidence?.rubric_id !== undefined && evidence.rubric_id !== rubric.rubric_id) return err(`the evidence was written for rubric ${evidence.rubric_id}, not ${rubric.rubric_id}`);
  // Evidence entries name a response by its id or its turn key; one that matches nothing is a mistake worth saying.
  const byKey = new Map((evidence?.responses ?? []).map((entry) => [entry.id, entry]));
  const used = new Set<string>();
  const graded: (GradedResponse & { turnKey: string })[] = [];
  const problems: string[] = [];
  for (const fact of facts) {
    const entry = (fact.responseId !== null ? byKey.get(fact.responseId) : undefined) ?? byKey.get(fact.turnKey);
    if (entry) used.add(entry.id);
    const result = gradeResponse(rubric, fact, undefined, entry);
    if (result.ok) graded.push({ ...result.value, turnKey: fact.turnKey });
    else problems.push(...result.issues.map((found) => `${fact.turnKey}: ${found.message}`));
  }
  const unmatched = [...byKey.keys()].filter((key) => !used.has(key));
  if (unmatched.length > 0) problems.push(`evidence for responses the run does not have: ${unmatched.slice(0, 10).join(", ")}${unmatched.length > 10 ? ` and ${unmatched.length - 10} more` : ""}`);
  return problems.length > 0 ? err(...problems) : ok(graded.sort((a, b) => a.turnKey.localeCompare(b.turnKey)));
}

function rubricSummary(loaded: LoadedRubric): GradedRun["rubric"] {
  return { id: loaded.rubric.rubric_id, version: loaded.rubric.version, title: loaded.rubric.title, fingerprint: loaded.fingerprint, file: loaded.file, tieBreak: tieBreakCriteria(loaded.rubric) };
}

/** A stored run by id, else by label; a label several runs share is refused with their ids. */
export async function findRunByIdOrLabel(db: Database, actor: SessionUser | null, idOrLabel: string): Promise<Result<{ id: string; label: string }, string>> {
  assertAllowed(actor, "read");
  const byId = await db.run.findUnique({ where: { id: idOrLabel }, select: { id: true, label: true } });
  if (byId) return ok(byId);
  const byLabel = await db.run.findMany({ where: { label: idOrLabel }, select: { id: true, label: true } });
  if (byLabel.length === 1) return ok(byLabel[0]!);
  if (byLabel.length > 1) return err(`${byLabel.length} runs are labelled "${idOrLabel}"; give one id: ${byLabel.map((run) => run.id).join(", ")}`);
  return err(`no stored run with id or label "${idOrLabel}"`);
}

export async function gradeStoredRun(db: Database, actor: SessionUser | null, runId: string, loaded: LoadedRubric, evidence?: EvidenceFile): Promise<Result<GradedRun, string> | null> {
  assertAllowed(actor, "read");
  const run = await db.run.findUnique({ where: { id: runId }, include: { model: { select: { name: true, displayName: true } } } });
  if (!run) return null;
  const responses = await findResponses(db, { runId });
  const pairwise = loaded.rubric.criteria.some((criterion) => criterion.source === "pairwise") ? await pairwiseCountsByTurn(db, runId) : null;
  const graded = gradeAll(loaded.rubric, responses.map((response) => withPairwise(factsOfStored(response, run.hasResolve), pairwise)), evidence);
  if (!graded.ok) return graded;
  return ok({
    run: { id: run.id, label: run.label, model: run.model.name, modelDisplayName: run.model.displayName, benchmarkId: run.benchmarkId, hasResolve: run.hasResolve },
    rubric: rubricSummary(loaded),
    responses: graded.value,
  });
}

/** One response's grade, computed from its stored verdicts (cheap and pure); null when the response is unknown. */
export async function gradeStoredResponse(db: Database, actor: SessionUser | null, responseId: string, loaded: LoadedRubric): Promise<Result<GradedResponse, string> | null> {
  assertAllowed(actor, "read");
  const [response] = await findResponses(db, { id: responseId });
  if (!response) return null;
  const run = await db.run.findUnique({ where: { id: response.runId }, select: { hasResolve: true } });
  const pairwise = loaded.rubric.criteria.some((criterion) => criterion.source === "pairwise") ? await pairwiseCountsByTurn(db, response.runId) : null;
  const graded = gradeResponse(loaded.rubric, withPairwise(factsOfStored(response, run?.hasResolve ?? false), pairwise));
  return graded.ok ? graded : err(...graded.issues.map((found) => found.message));
}

/** Grades a run file (recorded run or generation output) against a benchmark directory, scoring it on the fly. */
export async function gradeRunFile(benchmarkDir: string, runFile: string, loaded: LoadedRubric, evidence?: EvidenceFile): Promise<Result<GradedRun, string>> {
  const files = await readBenchmarkDir(benchmarkDir, { includeRuns: false });
  if (!files.ok) return err(...files.issues.map((found) => found.message));
  let data: unknown;
  try {
    data = JSON.parse(await readFile(runFile, "utf8"));
  } catch (error) {
    return err(`${runFile}: cannot read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const source = { name: path.basename(path.resolve(benchmarkDir)), sourceDir: path.resolve(benchmarkDir), queries: files.value.queries, checkPass: files.value.checkPass, checkResolve: files.value.checkResolve, prompts: files.value.prompts };
  const context = benchmarkContext(source, sha256);
  const modelName = path.basename(runFile).replace(/\.json$/i, "");
  const runSource = { file: runFile, model: describeModel(modelName), label: path.basename(runFile) };
  let planned;
  if (isGenerationFile(data)) {
    const items = parseGenerationFile(runFile, data);
    if (!items.ok) return err(...items.issues.map((found) => found.message));
    planned = planGenerationRun(runSource, items.value, context, sha256);
  } else {
    const records = parseRunFile(runFile, data);
    if (!records.ok) return err(...records.issues.map((found) => found.message));
    planned = planRecordedRun(runSource, records.value, context, sha256);
  }
  if (!planned.ok) return err(...planned.issues.map((found) => found.message));
  const plan = planned.value;
  const facts = plan.responses.map((response) => {
    const turn = context.turns.get(response.turnKey);
    return factsOfPlan(response, turn?.keyNodes ?? [], turn?.tests.length || CASES_PER_TURN, plan.hasResolve);
  });
  const graded = gradeAll(loaded.rubric, facts, evidence);
  if (!graded.ok) return graded;
  return ok({
    run: { id: null, label: plan.label, model: plan.model.name, modelDisplayName: plan.model.displayName, benchmarkId: null, hasResolve: plan.hasResolve },
    rubric: rubricSummary(loaded),
    responses: graded.value,
  });
}

// -- evidence files -------------------------------------------------------------------------------------------------

/** Largest evidence file read from disk or accepted as an upload. */
export const MAX_EVIDENCE_BYTES = 16 * 1024 * 1024;

/** Parses an evidence file's text; issues name the file, the entry and the field. */
export function parseEvidenceText(label: string, text: string): Result<EvidenceFile, string> {
  if (Buffer.byteLength(text) > MAX_EVIDENCE_BYTES) return err(`${label}: larger than ${MAX_EVIDENCE_BYTES / 1024 / 1024} MB`);
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return err(`${label}: not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return parseEvidence(label, data);
}

export async function loadEvidenceFile(file: string): Promise<Result<EvidenceFile, string>> {
  const read = await readTextFile(file, MAX_EVIDENCE_BYTES);
  return read.ok ? parseEvidenceText(file, read.value) : read;
}

export interface GradedEvidence {
  rubric: GradedRun["rubric"];
  run: string | null;
  responses: EvidenceGrade[];
}

/** Grades an evidence file on its own (no stored run): any profile, A to D or the Chat2Workflow one. */
export function gradeEvidenceRun(loaded: LoadedRubric, evidence: EvidenceFile): Result<GradedEvidence, string> {
  const graded = gradeEvidenceFile(loaded.rubric, evidence);
  return graded.ok ? ok({ rubric: rubricSummary(loaded), run: evidence.run ?? null, responses: graded.value }) : graded;
}

/** The rubric files shipped in rubrics/, for the grades page's profile choice. */
export async function listShippedRubrics(): Promise<{ file: string; rubric: LoadedRubric | null; problem: string | null }[]> {
  const names = (await readdir(RUBRICS_DIR)).filter((name) => name.endsWith(".yaml")).sort();
  return Promise.all(
    names.map(async (file) => {
      const loaded = await loadRubricFile(path.join(RUBRICS_DIR, file));
      return loaded.ok ? { file, rubric: loaded.value, problem: null } : { file, rubric: null, problem: loaded.issues.join("; ") };
    }),
  );
}

// -- storage (§9) -------------------------------------------------------------------------------------------------

function row(runId: string, rubric: GradedRun["rubric"], responseId: string, result: GradeResult, judges: readonly JudgeUse[]) {
  return {
    responseId,
    runId,
    rubricId: rubric.id,
    rubricVersion: rubric.version,
    rubricFingerprint: rubric.fingerprint,
    passed: result.passed,
    grade: result.grade,
    bandGrade: result.band_grade,
    weighted: result.weighted_100,
    passThreshold: result.pass_threshold,
    gateFailures: JSON.stringify(result.gate_failures),
    floorFailures: JSON.stringify(result.floor_failures),
    gates: JSON.stringify(result.gates),
    criteria: JSON.stringify(result.criteria),
    reasons: JSON.stringify(result.reasons),
    explanation: result.explanation,
    judges: JSON.stringify(judges),
  };
}

/** Replaces the run's grades for this rubric version in one transaction; returns the number of rows written. */
export async function storeRunGrades(db: Database, actor: SessionUser | null, graded: GradedRun): Promise<number> {
  assertAllowed(actor, "import");
  const runId = graded.run.id;
  if (runId === null) throw new Error("only stored runs can have their grades stored");
  const rows = graded.responses.map((response) => row(runId, graded.rubric, response.facts.responseId!, response.result, response.judges));
  await db.$transaction([
    db.gradingResult.deleteMany({ where: { runId, rubricId: graded.rubric.id, rubricVersion: graded.rubric.version } }),
    db.gradingResult.createMany({ data: rows }),
  ]);
  return rows.length;
}

export interface StoredGradeInfo {
  gradedAt: Date;
  rubricFingerprint: string;
}

/** When this response was last graded and stored with the rubric version, if ever. */
export async function findStoredGrade(db: Database, actor: SessionUser | null, responseId: string, rubricId: string, rubricVersion: number): Promise<StoredGradeInfo | null> {
  assertAllowed(actor, "read");
  return db.gradingResult.findUnique({
    where: { responseId_rubricId_rubricVersion: { responseId, rubricId, rubricVersion } },
    select: { gradedAt: true, rubricFingerprint: true },
  });
}

// -- per-model summaries (leaderboard grade columns) --------------------------------------------------------------

export interface GradeStandings {
  /** Models (all their runs on the benchmark pooled), best first by §5.2 with the deciding rule per row. */
  models: OrderedStanding[];
  /** Runs one by one, ordered the same way. */
  runs: (OrderedStanding & { runId: string; model: string })[];
}

/**
 * Every run of the benchmark graded with the rubric, ordered per model and per run. Kept in the read cache until the
 * database changes: grading a thousand responses takes about a second.
 */
export async function gradeBenchmarkStandings(db: Database, actor: SessionUser | null, benchmarkId: string, loaded: LoadedRubric): Promise<Result<GradeStandings, string>> {
  assertAllowed(actor, "read");
  return cachedRead(db, `grade-standings:${benchmarkId}:${loaded.fingerprint}`, () => computeStandings(db, actor, benchmarkId, loaded));
}

async function computeStandings(db: Database, actor: SessionUser | null, benchmarkId: string, loaded: LoadedRubric): Promise<Result<GradeStandings, string>> {
  const runs = await db.run.findMany({ where: { benchmarkId }, select: { id: true }, orderBy: { importedAt: "asc" } });
  const roles = tieBreakCriteria(loaded.rubric);
  const byModel = new Map<string, { displayName: string; runs: number; results: GradeResult[] }>();
  const runStandings: Standing[] = [];
  const runModel = new Map<string, string>();
  for (const run of runs) {
    const graded = await gradeStoredRun(db, actor, run.id, loaded);
    if (graded === null) continue;
    if (!graded.ok) return graded;
    const results = graded.value.responses.map((response) => response.result);
    const entry = byModel.get(graded.value.run.model) ?? { displayName: graded.value.run.modelDisplayName, runs: 0, results: [] };
    entry.runs += 1;
    entry.results.push(...results);
    byModel.set(graded.value.run.model, entry);
    runStandings.push(standingOf(run.id, `${graded.value.run.modelDisplayName} · ${graded.value.run.label}`, 1, results, roles));
    runModel.set(run.id, graded.value.run.model);
  }
  return ok({
    models: orderStandings([...byModel.entries()].map(([model, entry]) => standingOf(model, entry.displayName, entry.runs, entry.results, roles))),
    runs: orderStandings(runStandings).map((row) => ({ ...row, runId: row.candidate.id, model: runModel.get(row.candidate.id)! })),
  });
}

// -- promotion (§10) ----------------------------------------------------------------------------------------------

/** A graded run as promotion items: one per turn, with "severe" = at least one error-severity diagnostic. */
export function promotionItems(graded: GradedRun): PromotionItem[] {
  return graded.responses.map((response) => ({
    key: response.turnKey,
    result: response.result,
    severe: response.facts.diagnostics.some((diagnostic) => diagnostic.severity === "error"),
  }));
}

export interface PromotionReport {
  candidate: GradedRun["run"];
  baseline: GradedRun["run"];
  rubric: GradedRun["rubric"];
  decision: PromotionDecision;
  /** The two runs ordered by grade (§5.2), so a near tie says which tie-breaker puts one above the other. */
  order: OrderedStanding[];
}

export function comparePromotion(candidate: GradedRun, baseline: GradedRun, thresholds: Partial<PromotionThresholds> = {}): Result<PromotionReport, string> {
  if (candidate.run.benchmarkId !== null && baseline.run.benchmarkId !== null && candidate.run.benchmarkId !== baseline.run.benchmarkId) {
    return err("the candidate and baseline runs belong to different benchmarks; a promotion check compares runs on the same benchmark");
  }
  const decision = decidePromotion(promotionItems(candidate), promotionItems(baseline), thresholds);
  if (!decision.ok) return err(...decision.issues.map((found) => found.message));
  const roles = candidate.rubric.tieBreak;
  const standing = (graded: GradedRun, side: string) => standingOf(side, `${side} ${graded.run.modelDisplayName} · ${graded.run.label}`, 1, graded.responses.map((response) => response.result), roles);
  const order = orderStandings([standing(candidate, "candidate"), standing(baseline, "baseline")]);
  return ok({ candidate: candidate.run, baseline: baseline.run, rubric: candidate.rubric, decision: decision.value, order });
}

/** Grades two stored runs (ids) with the rubric and decides; null when either run is unknown. */
export async function checkPromotion(
  db: Database,
  actor: SessionUser | null,
  candidateId: string,
  baselineId: string,
  loaded: LoadedRubric,
  thresholds: Partial<PromotionThresholds> = {},
): Promise<Result<PromotionReport, string> | null> {
  assertAllowed(actor, "read");
  const [candidate, baseline] = [await gradeStoredRun(db, actor, candidateId, loaded), await gradeStoredRun(db, actor, baselineId, loaded)];
  if (candidate === null || baseline === null) return null;
  if (!candidate.ok) return candidate;
  if (!baseline.ok) return baseline;
  return comparePromotion(candidate.value, baseline.value, thresholds);
}
