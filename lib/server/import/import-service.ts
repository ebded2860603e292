import "server-only";
// Imports a benchmark and runs: read and validate everything, score every response, then write it all in one
// transaction. Any invalid file rejects the whole import with located issues and leaves the database unchanged.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { budgetExceededPlan, type AnalysisTask } from "@/lib/analysis/tasks";
import { parseCheckPassFile, parseCheckResolveFile, parseQueryFile, turnKey } from "@/lib/benchmark/dataset";
import { DEFAULT_MAX_FIELD_CHARS, oversizedFields } from "@/lib/benchmark/field-limits";
import { issue, type BenchmarkIssue } from "@/lib/benchmark/issues";
import { parseGenerationFile, parseRunFile } from "@/lib/benchmark/runs";
import type { BenchmarkPlan, ResponsePlan, RunPlan } from "@/lib/import/plan-types";
import {
  benchmarkContext,
  checkGenerationRun,
  checkRecordedRun,
  describeModel,
  isGenerationFile,
  planBenchmark,
  runPlan,
  type BenchmarkSource,
} from "@/lib/import/plan";
import { analyseAll, analysisBudgetMs } from "../analysis/pool";
import type { Database } from "../db";
import { insideRoots, jsonErrorWithoutContent, NOT_AVAILABLE, readBenchmarkDir, readUtf8Strict } from "../benchmark-files";
import { sha256 } from "../hash";
import { loadBenchmarkSource } from "./benchmark-source";
import { writeImport, type WriteResult } from "./write-import";

/** A file's name (as shown in messages) and its text, from an upload or from disk. */
export interface ImportFile {
  name: string;
  content: string;
}

export type BenchmarkInput =
  /** `allowedRoots`: every file read must really (symlinks followed) lie inside one of them (web imports). */
  | { kind: "directory"; dir: string; name?: string; allowedRoots?: readonly string[] }
  | { kind: "files"; name: string; files: ImportFile[] }
  | { kind: "existing"; benchmarkId: string };

export interface ImportRequest {
  benchmark: BenchmarkInput;
  runs: ImportFile[];
  /** Model name for every run (default: each file's base name, e.g. "gpt_5d2"). */
  model?: string;
  /** Run label for every run (default: the file name). */
  label?: string;
  importedBy: string | null;
}

export interface ImportLimits {
  maxFileBytes: number;
  maxResponses: number;
  /** Longest string any field of a run record may hold (default DEFAULT_MAX_FIELD_CHARS). */
  maxFieldChars?: number;
}

export { DEFAULT_MAX_FIELD_CHARS, oversizedFields } from "@/lib/benchmark/field-limits";

export type ImportPhase = "reading" | "validating" | "scoring" | "done";

export interface ImportProgress {
  phase: ImportPhase;
  file: string | null;
  fileIndex: number;
  fileCount: number;
  responsesDone: number;
  responsesTotal: number;
}

export interface RunSummary {
  runId: string;
  model: string;
  label: string;
  origin: string;
  created: boolean;
  responses: number;
  passed: number;
  deterministicPassed: number;
  casesPassed: number | null;
  diagnosticsByCategory: Record<string, number>;
  disagreements: { failStep: number; judge: number };
}

export type ImportOutcome =
  | { ok: true; benchmarkId: string; benchmarkName: string; benchmarkCreated: boolean; runs: RunSummary[] }
  | { ok: false; issues: BenchmarkIssue[] };

export interface ImportHooks {
  onProgress?: (progress: ImportProgress) => void;
  /** Test hook, called inside the write transaction after each run. */
  afterRunWritten?: (index: number) => void | Promise<void>;
}

const DATASET_FILES = {
  "query.json": "queries",
  "check_pass_stage.json": "checkPass",
  "check_resolve_stage.json": "checkResolve",
} as const;

/** Splits uploaded files into benchmark files (dataset JSON, prompt texts) and run files. */
export function classifyUploads(files: ImportFile[]): { dataset: ImportFile[]; prompts: ImportFile[]; runs: ImportFile[] } {
  const dataset: ImportFile[] = [];
  const prompts: ImportFile[] = [];
  const runs: ImportFile[] = [];
  for (const file of files) {
    const base = path.basename(file.name);
    if (base in DATASET_FILES) dataset.push(file);
    else if (base.endsWith(".txt")) prompts.push(file);
    else runs.push(file);
  }
  return { dataset, prompts, runs };
}

function parseJsonText(file: ImportFile): { ok: true; value: unknown } | { ok: false; issue: BenchmarkIssue } {
  try {
    return { ok: true, value: JSON.parse(file.content) as unknown };
  } catch (error) {
    return { ok: false, issue: issue(file.name, null, null, jsonErrorWithoutContent(error)) };
  }
}

function sourceFromUploads(name: string, files: ImportFile[]): { source: BenchmarkSource | null; issues: BenchmarkIssue[] } {
  const { dataset, prompts } = classifyUploads(files);
  const issues: BenchmarkIssue[] = [];
  const parsed: Partial<Pick<BenchmarkSource, "queries" | "checkPass" | "checkResolve">> = {};
  for (const [fileName, key] of Object.entries(DATASET_FILES)) {
    const file = dataset.find((candidate) => path.basename(candidate.name) === fileName);
    if (!file) {
      issues.push(issue(`dataset/${fileName}`, null, null, "missing: upload query.json, check_pass_stage.json and check_resolve_stage.json together"));
      continue;
    }
    const json = parseJsonText(file);
    if (!json.ok) {
      issues.push(json.issue);
      continue;
    }
    const label = `dataset/${fileName}`;
    const tooDeep = oversizedFields(label, json.value, Number.POSITIVE_INFINITY);
    if (tooDeep.length) {
      issues.push(...tooDeep);
      continue;
    }
    const result =
      key === "queries" ? parseQueryFile(label, json.value) : key === "checkPass" ? parseCheckPassFile(label, json.value) : parseCheckResolveFile(label, json.value);
    if (!result.ok) issues.push(...result.issues);
    else (parsed as Record<string, unknown>)[key] = result.value;
  }
  if (issues.length || !parsed.queries || !parsed.checkPass || !parsed.checkResolve) return { source: null, issues };
  return {
    source: {
      name,
      sourceDir: null,
      queries: parsed.queries,
      checkPass: parsed.checkPass,
      checkResolve: parsed.checkResolve,
      prompts: prompts.map((file) => ({ name: path.basename(file.name).replace(/\.txt$/, ""), text: file.content })),
    },
    issues,
  };
}

async function resolveBenchmark(
  db: Database,
  input: BenchmarkInput,
  limits: ImportLimits,
): Promise<{ source: BenchmarkSource; plan: BenchmarkPlan | null; existingId: string | null } | { issues: BenchmarkIssue[] }> {
  if (input.kind === "existing") {
    const source = await loadBenchmarkSource(db, input.benchmarkId);
    if (!source) return { issues: [issue("benchmark", input.benchmarkId, null, "no such benchmark in the database")] };
    return { source, plan: null, existingId: input.benchmarkId };
  }
  let source: BenchmarkSource;
  if (input.kind === "directory") {
    const files = await readBenchmarkDir(input.dir, { maxBytes: limits.maxFileBytes, includeRuns: false, allowedRoots: input.allowedRoots });
    if (!files.ok) return { issues: files.issues };
    const dirName = path.basename(path.resolve(input.dir));
    source = {
      name: input.name ?? dirName,
      sourceDir: path.resolve(input.dir),
      queries: files.value.queries,
      checkPass: files.value.checkPass,
      checkResolve: files.value.checkResolve,
      prompts: files.value.prompts,
    };
  } else {
    const fromUploads = sourceFromUploads(input.name, input.files);
    if (!fromUploads.source) return { issues: fromUploads.issues };
    source = fromUploads.source;
  }
  const plan = planBenchmark(source, sha256);
  if (!plan.ok) return { issues: plan.issues };
  return { source, plan: plan.value, existingId: null };
}

/** What a model name may look like, from any source (option, form field, file name): it is shown and linked everywhere. */
export const MODEL_NAME_PATTERN = /^[\w.\-]{1,100}$/;

/** The model name a run file implies: its base name without `.json` (and a `.generation` marker). */
export function modelNameFromFile(fileName: string): string {
  return path.basename(fileName).replace(/\.json$/i, "").replace(/\.generation$/i, "");
}

interface ParsedRunFile {
  file: ImportFile;
  kind: "recorded" | "generation";
  data: unknown;
}

function countResponses(run: ParsedRunFile): number {
  if (!Array.isArray(run.data)) return 0;
  if (run.kind === "recorded") return run.data.length;
  return run.data.reduce<number>((total, item: unknown) => {
    if (typeof item !== "object" || item === null) return total;
    return total + Object.keys(item).filter((key) => key.startsWith("answer")).length;
  }, 0);
}

export async function runImport(db: Database, request: ImportRequest, limits: ImportLimits, hooks: ImportHooks = {}): Promise<ImportOutcome> {
  const fileCount = request.runs.length;
  const progress: ImportProgress = { phase: "reading", file: null, fileIndex: 0, fileCount, responsesDone: 0, responsesTotal: 0 };
  const report = (update: Partial<ImportProgress>) => {
    Object.assign(progress, update);
    hooks.onProgress?.({ ...progress });
  };
  report({});

  const benchmark = await resolveBenchmark(db, request.benchmark, limits);
  if ("issues" in benchmark) return { ok: false, issues: benchmark.issues };
  const context = benchmarkContext(benchmark.source, sha256);

  // Validate every run file before scoring any: a bad file rejects the whole import.
  report({ phase: "validating" });
  const issues: BenchmarkIssue[] = [];
  const parsedRuns: ParsedRunFile[] = [];
  for (const [index, file] of request.runs.entries()) {
    report({ file: file.name, fileIndex: index });
    if (Buffer.byteLength(file.content, "utf8") > limits.maxFileBytes) {
      issues.push(issue(file.name, null, null, `the file is larger than the ${limits.maxFileBytes}-byte limit (IMPORT_MAX_FILE_MB)`));
      continue;
    }
    const json = parseJsonText(file);
    if (!json.ok) {
      issues.push(json.issue);
      continue;
    }
    const oversized = oversizedFields(file.name, json.value, limits.maxFieldChars ?? DEFAULT_MAX_FIELD_CHARS);
    if (oversized.length) {
      issues.push(...oversized);
      continue;
    }
    parsedRuns.push({ file, kind: isGenerationFile(json.value) ? "generation" : "recorded", data: json.value });
  }
  const responsesTotal = parsedRuns.reduce((total, run) => total + countResponses(run), 0);
  if (responsesTotal > limits.maxResponses) {
    issues.push(issue("(import)", null, null, `${responsesTotal} responses exceed the limit of ${limits.maxResponses} per import (IMPORT_MAX_RESPONSES)`));
  }
  if (issues.length) return { ok: false, issues };

  // Check every run against the benchmark before scoring any, so all problems are reported together.
  const pending: { label: string; plan: () => Promise<RunPlan> }[] = [];
  const summaries: RunSummary[] = [];
  for (const [index, run] of parsedRuns.entries()) {
    report({ file: run.file.name, fileIndex: index });
    const modelName = request.model ?? modelNameFromFile(run.file.name);
    if (!MODEL_NAME_PATTERN.test(modelName)) {
      issues.push(issue(run.file.name, null, "model", "the model name (from the file name) must be 1–100 letters, digits, dots, dashes or underscores; rename the file or name the model"));
      continue;
    }
    const model = describeModel(modelName);
    const source = { file: run.file.name, model, label: request.label ?? path.basename(run.file.name) };
    const onResponse = () => {
      progress.responsesDone += 1;
      if (progress.responsesDone % 25 === 0 || progress.responsesDone === responsesTotal) report({});
    };
    if (run.kind === "generation") {
      const items = parseGenerationFile(run.file.name, run.data);
      const problems = items.ok ? checkGenerationRun(source, items.value, context) : items.issues;
      issues.push(...problems);
      if (items.ok && problems.length === 0) {
        const tasks = items.value.flatMap((item) => item.answers.map((answer) => ({ kind: "plan-generated" as const, task: item.task, round: answer.round, raw: answer.text, turn: context.turns.get(turnKey(item.task, answer.round))! })));
        pending.push({ label: source.label, plan: async () => runPlan(source, "imported", sha256(JSON.stringify(items.value)), await planResponses(tasks, onResponse), false) });
      }
    } else {
      const records = parseRunFile(run.file.name, run.data);
      const problems = records.ok ? checkRecordedRun(source, records.value, context) : records.issues;
      issues.push(...problems);
      if (records.ok && problems.length === 0) {
        const tasks = records.value.map((record) => ({
          kind: "plan-recorded" as const,
          record,
          turn: context.turns.get(turnKey(record.task, record.round))!,
          queries: context.queries.get(record.task) ?? [],
          promptFingerprints: context.promptFingerprints,
        }));
        pending.push({ label: source.label, plan: async () => runPlan(source, "recorded", sha256(JSON.stringify(records.value)), await planResponses(tasks, onResponse), true) });
      }
    }
  }
  if (issues.length) return { ok: false, issues };

  // Scored in worker threads, each response within its time budget, before the write transaction opens.
  report({ phase: "scoring", responsesTotal, file: null });
  const planned: { label: string; build: () => RunPlan }[] = [];
  for (const run of pending) {
    const plan = await run.plan();
    summaries.push(summarizePlan(plan));
    planned.push({ label: run.label, build: () => plan });
  }
  const written: WriteResult = await writeImport(
    db,
    { benchmark: benchmark.plan ?? { existingId: benchmark.existingId! }, runs: planned },
    {
      importedBy: request.importedBy,
      onProgress: (event) => report({ file: event.run, fileIndex: event.index }),
      afterRunWritten: hooks.afterRunWritten,
    },
  );
  report({ phase: "done", file: null });
  return {
    ok: true,
    benchmarkId: written.benchmarkId,
    benchmarkName: benchmark.source.name,
    benchmarkCreated: written.benchmarkCreated,
    runs: written.runs.map((run, index) => ({ ...summaries[index]!, runId: run.runId, label: run.label, created: run.created })),
  };
}

/**
 * Scores responses on the analysis workers. One that outlives its time budget is planned as failing with the budget
 * diagnostic; a scoring error (a bug) fails the import, as it did on the calling thread.
 */
export async function planResponses(tasks: Extract<AnalysisTask, { kind: "plan-recorded" | "plan-generated" }>[], onResponse: () => void): Promise<ResponsePlan[]> {
  const budgetMs = analysisBudgetMs();
  const outcomes = await analyseAll(tasks, budgetMs, onResponse);
  return outcomes.map((outcome, index) => {
    if (outcome.ok) return outcome.value;
    if (outcome.reason === "budget") return budgetExceededPlan(tasks[index]!, budgetMs);
    throw new Error(`scoring ${tasks[index]!.kind === "plan-recorded" ? "a record" : "an answer"} failed: ${outcome.message}`);
  });
}

/** Counts of one scored run, for the summary an import ends with. */
function summarizePlan(plan: RunPlan): RunSummary {
  const diagnosticsByCategory: Record<string, number> = {};
  let passed = 0;
  let deterministicPassed = 0;
  let casesPassed = 0;
  const disagreements = { failStep: 0, judge: 0 };
  for (const response of plan.responses) {
    if (response.pass.valid) passed += 1;
    if (response.pass.deterministicValid) deterministicPassed += 1;
    casesPassed += response.cases.filter((testCase) => testCase.verdict).length;
    for (const [category, count] of Object.entries(response.pass.categoryCounts)) {
      diagnosticsByCategory[category] = (diagnosticsByCategory[category] ?? 0) + count;
    }
    if (response.pass.disagreement === "fail-step") disagreements.failStep += 1;
    if (response.pass.disagreement === "judge") disagreements.judge += 1;
  }
  return {
    runId: "",
    model: plan.model.name,
    label: plan.label,
    origin: plan.origin,
    created: false,
    responses: plan.responses.length,
    passed,
    deterministicPassed,
    casesPassed: plan.hasResolve ? casesPassed : null,
    diagnosticsByCategory,
    disagreements,
  };
}

/** Expands --runs arguments: files as given, directories to their *.json files (sorted). */
export async function expandRunPaths(paths: string[]): Promise<{ files: string[]; issues: BenchmarkIssue[] }> {
  const files: string[] = [];
  const issues: BenchmarkIssue[] = [];
  for (const entry of paths) {
    let info;
    try {
      info = await stat(entry);
    } catch {
      issues.push(issue(entry, null, null, "does not exist or cannot be read"));
      continue;
    }
    if (info.isDirectory()) {
      const names = (await readdir(entry)).filter((name) => name.toLowerCase().endsWith(".json")).sort();
      if (names.length === 0) issues.push(issue(entry, null, null, "the directory has no .json run files"));
      files.push(...names.map((name) => path.join(entry, name)));
    } else {
      files.push(entry);
    }
  }
  return { files, issues };
}

/**
 * Reads run files from disk as strict UTF-8, refusing files over the size limit before reading them. With
 * `allowedRoots`, a file whose real path lies outside them gets the same answer as a missing one.
 */
export async function readImportFiles(paths: string[], maxBytes: number, allowedRoots?: readonly string[]): Promise<{ files: ImportFile[]; issues: BenchmarkIssue[] }> {
  const files: ImportFile[] = [];
  const issues: BenchmarkIssue[] = [];
  for (const file of paths) {
    try {
      if (allowedRoots && !(await insideRoots(file, allowedRoots))) {
        issues.push(issue(file, null, null, NOT_AVAILABLE));
        continue;
      }
      const { size } = await stat(file);
      if (size > maxBytes) {
        issues.push(issue(file, null, null, `the file is ${size} bytes, over the ${maxBytes}-byte limit (IMPORT_MAX_FILE_MB)`));
        continue;
      }
      const content = await readUtf8Strict(file);
      if (content === null) issues.push(issue(file, null, null, "not valid UTF-8 text"));
      else files.push({ name: file, content });
    } catch {
      issues.push(issue(file, null, null, allowedRoots ? NOT_AVAILABLE : "does not exist or cannot be read"));
    }
  }
  return { files, issues };
}
