import "server-only";
// Reads the benchmark directory and run files from disk into the core's typed data, every failure a located issue;
// generation reads through readGenerationInputs, which never opens the check files.

// fs.promises is read at each call, not imported: bundled into the score CLI (where it loads on first use), it spares
// the worker threads, which never read the benchmark this way, loading the promises module at start-up.
import { promises as fsPromises } from "node:fs";
import path from "node:path";
import { err, ok, type Result } from "@/lib/result";
import {
  parseCheckPassFile,
  parseCheckResolveFile,
  parseQueryFile,
  type CheckPassEntry,
  type TaskQueries,
} from "@/lib/benchmark/dataset";
import { oversizedFields } from "@/lib/benchmark/field-limits";
import { issue, type BenchmarkIssue } from "@/lib/benchmark/issues";
import { parseRunFile, type RunRecord } from "@/lib/benchmark/runs";
import { buildTurnSpecs, type TurnSpec } from "@/lib/benchmark/turn";

export const DEFAULT_MAX_FILE_BYTES = 64 * 1024 * 1024;

export interface ReadOptions {
  maxBytes?: number;
  /**
   * When set, every file's real path (symlinks followed) must lie inside one of these directories; a file outside
   * is refused with the same message as a missing one, so the answer does not reveal what exists elsewhere.
   */
  allowedRoots?: readonly string[];
  /** Also read runs/*.json (default true). */
  includeRuns?: boolean;
  /** Also read prompts/*.txt (default true). */
  includePrompts?: boolean;
}

export interface RunFile {
  /** The file name without `.json`, e.g. "gpt_5d2". */
  model: string;
  file: string;
  records: RunRecord[];
}

export interface BenchmarkFiles {
  dir: string;
  queries: TaskQueries[];
  checkPass: Record<string, CheckPassEntry>;
  checkResolve: Record<string, Record<string, string>>;
  /** Turn specs keyed by "<Task>_<round>". */
  turns: Map<string, TurnSpec>;
  /** runs/*.json in name order; empty when the directory has no runs folder or runs were not asked for. */
  runs: RunFile[];
  /** prompts/*.txt (name without extension), in name order; empty when there is no prompts folder or they were not asked for. */
  prompts: { name: string; text: string }[];
}

/** Whether the real path of `file` lies inside one of `roots` (their real paths too). */
export async function insideRoots(file: string, roots: readonly string[]): Promise<boolean> {
  let real: string;
  try {
    real = await fsPromises.realpath(file);
  } catch {
    return false;
  }
  for (const root of roots) {
    let realRoot: string;
    try {
      realRoot = await fsPromises.realpath(root);
    } catch {
      continue;
    }
    if (real === realRoot || real.startsWith(`${realRoot}${path.sep}`)) return true;
  }
  return false;
}

export const NOT_AVAILABLE = "does not exist or is not allowed for imports";

/** A JSON parse error without the parser's excerpt of the text: a file's contents are never echoed back. */
export function jsonErrorWithoutContent(error: unknown): string {
  const message = error instanceof Error ? error.message : "";
  const position = /position (\d+)/.exec(message)?.[1];
  return position !== undefined ? `not valid JSON (syntax error at character ${position})` : "not valid JSON";
}

/** Reads a file as strict UTF-8: null when it is not valid UTF-8 (never silently replaced). */
export async function readUtf8Strict(file: string): Promise<string | null> {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await fsPromises.readFile(file));
  } catch (error) {
    if (error instanceof TypeError) return null;
    throw error;
  }
}

export async function readJsonFile(file: string, label: string, maxBytes: number = DEFAULT_MAX_FILE_BYTES, allowedRoots?: readonly string[]): Promise<Result<unknown, BenchmarkIssue>> {
  let size: number;
  try {
    if (allowedRoots && !(await insideRoots(file, allowedRoots))) return err(issue(label, null, null, NOT_AVAILABLE));
    size = (await fsPromises.stat(file)).size;
  } catch {
    return err(issue(label, null, null, allowedRoots ? NOT_AVAILABLE : `cannot read ${file}: the file does not exist or is not accessible`));
  }
  if (size > maxBytes) {
    return err(issue(label, null, null, `the file is ${size} bytes, over the ${maxBytes}-byte limit`));
  }
  const text = await readUtf8Strict(file);
  if (text === null) return err(issue(label, null, null, "not valid UTF-8 text"));
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    return err(issue(label, null, null, jsonErrorWithoutContent(error)));
  }
  const tooDeep = oversizedFields(label, value, Number.POSITIVE_INFINITY);
  return tooDeep.length ? err(...tooDeep) : ok(value);
}

export async function readRunFile(file: string, options: ReadOptions & { label?: string } = {}): Promise<Result<RunRecord[], BenchmarkIssue>> {
  const label = options.label ?? path.basename(file);
  const data = await readJsonFile(file, label, options.maxBytes ?? DEFAULT_MAX_FILE_BYTES, options.allowedRoots);
  return data.ok ? parseRunFile(label, data.value) : data;
}

async function readPrompts(dir: string, maxBytes: number, allowedRoots?: readonly string[]): Promise<Result<{ name: string; text: string }[], BenchmarkIssue>> {
  let names: string[];
  try {
    names = (await fsPromises.readdir(path.join(dir, "prompts"))).filter((name) => name.endsWith(".txt")).sort();
  } catch {
    return ok([]);
  }
  const prompts: { name: string; text: string }[] = [];
  for (const name of names) {
    const file = path.join(dir, "prompts", name);
    if (allowedRoots && !(await insideRoots(file, allowedRoots))) return err(issue(`prompts/${name}`, null, null, NOT_AVAILABLE));
    if ((await fsPromises.stat(file)).size > maxBytes) {
      return err(issue(`prompts/${name}`, null, null, `the file is over the ${maxBytes}-byte limit`));
    }
    const text = await readUtf8Strict(file);
    if (text === null) return err(issue(`prompts/${name}`, null, null, "not valid UTF-8 text"));
    prompts.push({ name: name.replace(/\.txt$/, ""), text });
  }
  return ok(prompts);
}

async function listRunFiles(dir: string): Promise<string[]> {
  try {
    return (await fsPromises.readdir(path.join(dir, "runs"))).filter((name) => name.endsWith(".json")).sort();
  } catch {
    return [];
  }
}

/** What generation may read: the instructions and the prompts, never the check files. */
export interface GenerationInputs {
  queries: TaskQueries[];
  prompts: BenchmarkFiles["prompts"];
}

export async function readGenerationInputs(dir: string, options: Omit<ReadOptions, "includeRuns"> = {}): Promise<Result<GenerationInputs, BenchmarkIssue>> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const data = await readJsonFile(path.join(dir, "dataset/query.json"), "dataset/query.json", maxBytes, options.allowedRoots);
  const queries = data.ok ? parseQueryFile("dataset/query.json", data.value) : data;
  const prompts = await readPrompts(dir, maxBytes, options.allowedRoots);
  if (!queries.ok || !prompts.ok) return err(...(queries.ok ? [] : queries.issues), ...(prompts.ok ? [] : prompts.issues));
  return ok({ queries: queries.value, prompts: prompts.value });
}

export async function readBenchmarkDir(dir: string, options: ReadOptions = {}): Promise<Result<BenchmarkFiles, BenchmarkIssue>> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_FILE_BYTES;
  const load = async <T>(relative: string, parse: (label: string, data: unknown) => Result<T, BenchmarkIssue>): Promise<Result<T, BenchmarkIssue>> => {
    const data = await readJsonFile(path.join(dir, relative), relative, maxBytes, options.allowedRoots);
    return data.ok ? parse(relative, data.value) : data;
  };
  const [queries, checkPass, checkResolve] = await Promise.all([
    load("dataset/query.json", parseQueryFile),
    load("dataset/check_pass_stage.json", parseCheckPassFile),
    load("dataset/check_resolve_stage.json", parseCheckResolveFile),
  ]);
  const runNames = options.includeRuns === false ? [] : await listRunFiles(dir);
  const prompts = options.includePrompts === false ? ok([]) : await readPrompts(dir, maxBytes, options.allowedRoots);
  const runResults = await Promise.all(
    runNames.map(async (name) => ({ name, result: await readRunFile(path.join(dir, "runs", name), { maxBytes, label: `runs/${name}`, allowedRoots: options.allowedRoots }) })),
  );
  const issues: BenchmarkIssue[] = [];
  for (const result of [queries, checkPass, checkResolve, prompts, ...runResults.map((r) => r.result)]) {
    if (!result.ok) issues.push(...result.issues);
  }
  if (!queries.ok || !checkPass.ok || !checkResolve.ok || !prompts.ok || issues.length) return err(...issues);
  return ok({
    dir,
    queries: queries.value,
    checkPass: checkPass.value,
    checkResolve: checkResolve.value,
    turns: buildTurnSpecs(checkPass.value, checkResolve.value),
    runs: runResults.map(({ name, result }) => ({
      model: name.replace(/\.json$/, ""),
      file: `runs/${name}`,
      records: result.ok ? result.value : [],
    })),
    prompts: prompts.value,
  });
}
