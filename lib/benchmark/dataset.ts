// Zod schemas and parsers for the benchmark's dataset files (query, pass-stage and resolve-stage checks), each
// failure a located issue.

import * as z from "zod";
import { err, ok, type Result } from "../result";
import { builtOnFirstUse } from "../zod-fast-path";
import { issue, zodIssues, type BenchmarkIssue } from "./issues";

export function turnKey(task: string, round: number): string {
  return `${task}_${round}`;
}

const TURN_KEY = /^(.+)_(\d+)$/;

export function splitTurnKey(key: string): { task: string; round: number } | null {
  const match = TURN_KEY.exec(key);
  return match ? { task: match[1] as string, round: Number(match[2]) } : null;
}

/**
 * Each dataset schema parses a few dozen values per read: zod's compiled fast path, generated on a schema's first
 * parse, costs more to build than it saves, so these parses take zod's plain path (same results).
 */
const FEW_PARSES = { jitless: true } as const;

// -- query.json ------------------------------------------------------------------------------------------------

const QUERY_KEY = /^query(\d+)$/;


export const taskQueriesSchema = builtOnFirstUse(() =>
  z
    .object({
      id: z.number().int(),
      category: z.string().min(1),
      task: z.string().min(1),
    })
    .catchall(z.unknown()),
);

export interface TaskQueries {
  id: number;
  category: string;
  task: string;
  /** query1..queryN in round order. */
  queries: string[];
}

export function parseQueryFile(file: string, data: unknown): Result<TaskQueries[], BenchmarkIssue> {
  if (!Array.isArray(data)) return err(issue(file, null, null, "expected a list of tasks"));
  const issues: BenchmarkIssue[] = [];
  const tasks: TaskQueries[] = [];
  data.forEach((item, index) => {
    const entry = entryLabel(item, index, "task");
    const parsed = isPlainTask(item) ? { success: true as const, data: item } : taskQueriesSchema().safeParse(item, FEW_PARSES);
    if (!parsed.success) {
      issues.push(...zodIssues(file, entry, parsed.error));
      return;
    }
    const rounds = new Map<number, string>();
    for (const [key, value] of Object.entries(parsed.data)) {
      const match = QUERY_KEY.exec(key);
      if (!match) continue;
      if (typeof value !== "string") {
        issues.push(issue(file, entry, key, "expected the instruction text (a string)"));
        continue;
      }
      rounds.set(Number(match[1]), value);
    }
    const queries: string[] = [];
    for (let round = 1; round <= rounds.size; round++) {
      const query = rounds.get(round);
      if (query === undefined) {
        issues.push(issue(file, entry, `query${round}`, "missing: rounds must be numbered query1..queryN without gaps"));
        return;
      }
      queries.push(query);
    }
    if (queries.length === 0) issues.push(issue(file, entry, "query1", "missing: a task needs at least one query"));
    tasks.push({ id: parsed.data.id, category: parsed.data.category, task: parsed.data.task, queries });
  });
  return issues.length ? err(...issues) : ok(tasks);
}

// -- check_pass_stage.json ---------------------------------------------------------------------------------------

const testFileSchema = builtOnFirstUse(() => z.object({ mime_type: z.string().min(1), value: z.string().min(1) }));
export type TestFile = z.infer<ReturnType<typeof testFileSchema>>;

const testInputValueSchema = builtOnFirstUse(() => z.union([z.string(), z.number(), testFileSchema(), z.array(testFileSchema())]));
/** A test input: plain string, number, one file, or a file list ("" means the key is omitted when run). */
export type TestInputValue = z.infer<ReturnType<typeof testInputValueSchema>>;

const testCaseSchema = builtOnFirstUse(() =>
  z.record(z.string(), testInputValueSchema()).superRefine((test, ctx) => {
    const truth = test.ground_truth;
    if (truth !== undefined && typeof truth !== "string") {
      ctx.addIssue({ code: "custom", path: ["ground_truth"], message: "ground_truth must be a string" });
    }
  }),
);

export interface TestCaseData {
  inputs: Record<string, TestInputValue>;
  groundTruth: string | null;
}

export const checkPassEntrySchema = builtOnFirstUse(() =>
  z.object({
    input_var: z.array(z.string()),
    output_var: z.union([z.array(z.string()), z.array(z.array(z.string()))]),
    related_nodes: z.array(z.string()),
    test1: testCaseSchema(),
    test2: testCaseSchema(),
    test3: testCaseSchema(),
  }),
);

export interface CheckPassEntry {
  inputVar: string[];
  /** A list of names for one End node, or a list of lists for several. */
  outputVar: string[] | string[][];
  relatedNodes: string[];
  tests: [TestCaseData, TestCaseData, TestCaseData];
}

function toTestCase(test: Record<string, TestInputValue>): TestCaseData {
  const { ground_truth: truth, ...inputs } = test;
  return { inputs, groundTruth: typeof truth === "string" ? truth : null };
}

export function parseCheckPassFile(file: string, data: unknown): Result<Record<string, CheckPassEntry>, BenchmarkIssue> {
  const entries = asRecord(file, data, "a mapping from <Task>_<round> to a turn");
  if (!entries.ok) return entries;
  const issues: BenchmarkIssue[] = [];
  const out: Record<string, CheckPassEntry> = {};
  for (const [key, value] of entries.value) {
    if (!splitTurnKey(key)) issues.push(issue(file, key, null, "the key must look like <Task>_<round>"));
    const plain = plainCheckPassEntry(value);
    if (plain) {
      out[key] = plain;
      continue;
    }
    const parsed = checkPassEntrySchema().safeParse(value, FEW_PARSES);
    if (!parsed.success) {
      issues.push(...zodIssues(file, key, parsed.error));
      continue;
    }
    const { input_var, output_var, related_nodes, test1, test2, test3 } = parsed.data;
    out[key] = {
      inputVar: input_var,
      outputVar: output_var,
      relatedNodes: related_nodes,
      tests: [toTestCase(test1), toTestCase(test2), toTestCase(test3)],
    };
  }
  return issues.length ? err(...issues) : ok(out);
}

// -- check_resolve_stage.json ------------------------------------------------------------------------------------

const FILE_EXTENSION = /^\.\w+$/;
export const fileCheckSchema = builtOnFirstUse(() => z.record(z.string(), z.string().regex(FILE_EXTENSION, "expected a file extension such as \".pdf\"")));

export function parseCheckResolveFile(file: string, data: unknown): Result<Record<string, Record<string, string>>, BenchmarkIssue> {
  const entries = asRecord(file, data, "a mapping from <Task>_<round> to {outputVar: extension}");
  if (!entries.ok) return entries;
  const issues: BenchmarkIssue[] = [];
  const out: Record<string, Record<string, string>> = {};
  for (const [key, value] of entries.value) {
    const plain = plainFileCheck(value);
    if (plain) {
      out[key] = plain;
      continue;
    }
    const parsed = fileCheckSchema().safeParse(value, FEW_PARSES);
    if (!parsed.success) issues.push(...zodIssues(file, key, parsed.error));
    else out[key] = parsed.data;
  }
  return issues.length ? err(...issues) : ok(out);
}

// -- plain entries -----------------------------------------------------------------------------------------------
// The dataset is read before any scoring starts, and zod's first parses of these schemas cost more than the checks
// themselves: entries that certainly parse are checked and copied here (what zod gives them); any doubt goes to zod.

/** An object as JSON.parse builds one, without a `__proto__` key (which zod's records and catch-alls leave out). */
function isParsedPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype && !Object.hasOwn(value, "__proto__");
}

const isText = (value: unknown): value is string => typeof value === "string" && value.length > 0;

function isStringList(value: unknown): value is string[] {
  if (!Array.isArray(value)) return false;
  for (const item of value) if (typeof item !== "string") return false;
  return true;
}

/** What taskQueriesSchema gives: the entry itself (its catch-all keeps every key). */
function isPlainTask(item: unknown): item is Record<string, unknown> & { id: number; category: string; task: string } {
  return isParsedPlainObject(item) && Number.isSafeInteger(item.id) && isText(item.category) && isText(item.task);
}

function plainTestFile(value: unknown): TestFile | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { mime_type, value: text } = value as Record<string, unknown>;
  return isText(mime_type) && isText(text) ? { mime_type, value: text } : null;
}

/** What testInputValueSchema gives: strings and numbers as they are, files with their two fields only; else undefined. */
function plainTestInput(value: unknown): TestInputValue | undefined {
  if (typeof value === "string" || (typeof value === "number" && Number.isFinite(value))) return value;
  if (!Array.isArray(value)) return plainTestFile(value) ?? undefined;
  const files: TestFile[] = [];
  for (const item of value) {
    const file = plainTestFile(item);
    if (!file) return undefined;
    files.push(file);
  }
  return files;
}

function plainTestCase(test: unknown): TestCaseData | null {
  if (!isParsedPlainObject(test)) return null;
  const inputs: Record<string, TestInputValue> = {};
  let groundTruth: string | null = null;
  for (const key of Object.keys(test)) {
    const input = plainTestInput(test[key]);
    if (input === undefined) return null;
    if (key !== "ground_truth") inputs[key] = input;
    else if (typeof input === "string") groundTruth = input;
    else return null;
  }
  return { inputs, groundTruth };
}

function plainCheckPassEntry(value: unknown): CheckPassEntry | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null;
  const { input_var, output_var, related_nodes, test1, test2, test3 } = value as Record<string, unknown>;
  if (!isStringList(input_var) || !isStringList(related_nodes)) return null;
  let outputVar: string[] | string[][];
  if (isStringList(output_var)) outputVar = [...output_var];
  else if (Array.isArray(output_var) && output_var.every(isStringList)) outputVar = output_var.map((names: string[]) => [...names]);
  else return null;
  const tests = [plainTestCase(test1), plainTestCase(test2), plainTestCase(test3)];
  if (!tests[0] || !tests[1] || !tests[2]) return null;
  return { inputVar: [...input_var], outputVar, relatedNodes: [...related_nodes], tests: [tests[0], tests[1], tests[2]] };
}

function plainFileCheck(value: unknown): Record<string, string> | null {
  if (!isParsedPlainObject(value)) return null;
  const out: Record<string, string> = {};
  for (const key of Object.keys(value)) {
    const extension = value[key];
    if (typeof extension !== "string" || !FILE_EXTENSION.test(extension)) return null;
    out[key] = extension;
  }
  return out;
}

// -- helpers ---------------------------------------------------------------------------------------------------

function asRecord(file: string, data: unknown, expected: string): Result<[string, unknown][], BenchmarkIssue> {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return err(issue(file, null, null, `expected ${expected}`));
  return ok(Object.entries(data));
}

/** "PaperQA (item 3)" for a list item with a task name, else "item 3"; items count from 1. */
export function entryLabel(item: unknown, index: number, nameKey: string): string {
  if (typeof item === "object" && item !== null && !Array.isArray(item)) {
    const name = (item as Record<string, unknown>)[nameKey];
    if (typeof name === "string" && name) return `${name} (item ${index + 1})`;
  }
  return `item ${index + 1}`;
}
