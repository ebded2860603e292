// Zod schemas and parsers for recorded run files and the official generation output, keeping the files' snake_case
// fields; each failure a located issue.

import * as z from "zod";
import { err, ok, type Result } from "../result";
import { builtOnFirstUse, fits, pickShape, shape, type ObjectShape, type Shape } from "../zod-fast-path";
import { entryLabel } from "./dataset";
import { issue, zodIssues, type BenchmarkIssue } from "./issues";

export const RUN_FAIL_STEPS = ["step_1_1", "step_1_2", "step_1_3", "step_1_4", "step_1_5"] as const;
export type RunFailStep = (typeof RUN_FAIL_STEPS)[number];

/** A run record as the API contract documents it and zod words its issues: built on first use (see RUN_RECORD_SHAPE). */
export const runRecordSchema = builtOnFirstUse(() =>
  z.object({
    task: z.string().min(1),
    round: z.number().int().min(1),
    /** null when a tag was missing (then all three are null). */
    node_selection: z.string().nullable(),
    design_principle: z.string().nullable(),
    /** The cleaned workflow JSON string, or null. */
    workflow: z.string().nullable(),
    valid: z.boolean(),
    has_been_judged: z.boolean(),
    fail_step: z.enum(RUN_FAIL_STEPS).optional(),
    /** The pass judge's reasoning (records that reached step_1_4). */
    reason: z.string().optional(),
    /** The Dify app key (valid records), or "Other-Error". */
    api_key: z.string().optional(),
    test1: z.boolean().optional(),
    test2: z.boolean().optional(),
    test3: z.boolean().optional(),
    llm_output_test1: z.string().optional(),
    llm_output_test2: z.string().optional(),
    llm_output_test3: z.string().optional(),
    llm_evaluate_reason_test1: z.string().optional(),
    llm_evaluate_reason_test2: z.string().optional(),
    llm_evaluate_reason_test3: z.string().optional(),
  }),
);

export type RunRecord = z.infer<ReturnType<typeof runRecordSchema>>;

const NON_EMPTY_TEXT: Shape = { type: "string", minLength: 1 };
const TEXT_OR_NULL = shape.nullable(shape.string);
const OPTIONAL_TEXT = shape.optional(shape.string);
const OPTIONAL_FLAG = shape.optional(shape.boolean);

/** runRecordSchema as a shape (a test holds the two equal): every thread reads run files, without building zod. */
export const RUN_RECORD_SHAPE: ObjectShape = shape.object({
  task: NON_EMPTY_TEXT,
  round: { type: "number", int: true, min: 1 },
  node_selection: TEXT_OR_NULL,
  design_principle: TEXT_OR_NULL,
  workflow: TEXT_OR_NULL,
  valid: shape.boolean,
  has_been_judged: shape.boolean,
  fail_step: shape.optional(shape.enum(RUN_FAIL_STEPS)),
  reason: OPTIONAL_TEXT,
  api_key: OPTIONAL_TEXT,
  test1: OPTIONAL_FLAG,
  test2: OPTIONAL_FLAG,
  test3: OPTIONAL_FLAG,
  llm_output_test1: OPTIONAL_TEXT,
  llm_output_test2: OPTIONAL_TEXT,
  llm_output_test3: OPTIONAL_TEXT,
  llm_evaluate_reason_test1: OPTIONAL_TEXT,
  llm_evaluate_reason_test2: OPTIONAL_TEXT,
  llm_evaluate_reason_test3: OPTIONAL_TEXT,
});

export function recordLabel(record: unknown, index: number): string {
  if (typeof record === "object" && record !== null) {
    const { task, round } = record as { task?: unknown; round?: unknown };
    if (typeof task === "string" && (typeof round === "number" || typeof round === "string")) {
      return `record ${index + 1} (${task} round ${round})`;
    }
  }
  return `record ${index + 1}`;
}

/** Each run's consecutive turns of one task (round r and r + 1), in record order. */
export function consecutiveTurns<R extends Pick<RunRecord, "task" | "round">>(
  runs: readonly { model: string; records: readonly R[] }[],
): { model: string; earlier: R; later: R }[] {
  return runs.flatMap(({ model, records }) =>
    records.flatMap((earlier) => {
      const later = records.find((r) => r.task === earlier.task && r.round === earlier.round + 1);
      return later ? [{ model, earlier, later }] : [];
    }),
  );
}

/** Whether checkConsistency finds nothing: what almost every record gives, decided without building a list. */
function isConsistent(record: RunRecord): boolean {
  const nulls = (record.node_selection === null ? 1 : 0) + (record.design_principle === null ? 1 : 0) + (record.workflow === null ? 1 : 0);
  return (record.valid ? !record.fail_step : !!record.fail_step) && (nulls === 0 || nulls === 3);
}

function checkConsistency(file: string, entry: string, record: RunRecord): BenchmarkIssue[] {
  const issues: BenchmarkIssue[] = [];
  if (record.valid && record.fail_step) issues.push(issue(file, entry, "fail_step", "a valid record cannot have a fail_step"));
  if (!record.valid && !record.fail_step) issues.push(issue(file, entry, "fail_step", "an invalid record needs a fail_step"));
  const nulls = [record.node_selection, record.design_principle, record.workflow].filter((v) => v === null).length;
  if (nulls !== 0 && nulls !== 3) {
    issues.push(issue(file, entry, "workflow", "node_selection, design_principle and workflow are null together or not at all"));
  }
  return issues;
}

export function parseRunFile(file: string, data: unknown): Result<RunRecord[], BenchmarkIssue> {
  if (!Array.isArray(data)) return err(issue(file, null, null, "expected a list of run records"));
  const issues: BenchmarkIssue[] = [];
  const records: RunRecord[] = [];
  const seen = new Set<string>();
  // Indexed, and each record's label built only for an issue: run files of hundreds of records are read cold.
  for (let index = 0; index < data.length; index += 1) {
    const item: unknown = data[index];
    let record: RunRecord;
    if (fits(RUN_RECORD_SHAPE, item)) {
      record = pickShape<RunRecord>(RUN_RECORD_SHAPE, item as object);
    } else {
      const parsed = runRecordSchema().safeParse(item);
      if (!parsed.success) {
        issues.push(...zodIssues(file, recordLabel(item, index), parsed.error));
        continue;
      }
      record = parsed.data;
    }
    if (!isConsistent(record)) issues.push(...checkConsistency(file, recordLabel(item, index), record));
    const key = `${record.task}_${record.round}`;
    if (seen.has(key)) issues.push(issue(file, recordLabel(item, index), "round", `duplicate turn ${key}`));
    seen.add(key);
    records.push(record);
  }
  return issues.length ? err(...issues) : ok(records);
}

// -- generation output -------------------------------------------------------------------------------------------

// Recorded runs, what the score CLI reads on every thread, never need it.
const generationItem = builtOnFirstUse(() => z.object({ id: z.number().int(), category: z.string(), task: z.string().min(1) }).catchall(z.unknown()));

export interface GenerationItem {
  id: number;
  category: string;
  task: string;
  /** One per `answerN` key; the round is the number in the key, as the official extractor reads it. */
  answers: { round: number; key: string; text: string }[];
}

const FIRST_DIGITS = /(\d+)/;

export function parseGenerationFile(file: string, data: unknown): Result<GenerationItem[], BenchmarkIssue> {
  if (!Array.isArray(data)) return err(issue(file, null, null, "expected a list of {id, category, task, answer1..answerN}"));
  const issues: BenchmarkIssue[] = [];
  const items: GenerationItem[] = [];
  data.forEach((item, index) => {
    const entry = entryLabel(item, index, "task");
    const parsed = generationItem().safeParse(item);
    if (!parsed.success) {
      issues.push(...zodIssues(file, entry, parsed.error));
      return;
    }
    const answers: GenerationItem["answers"] = [];
    for (const [key, value] of Object.entries(parsed.data)) {
      if (!key.startsWith("answer")) continue;
      if (typeof value !== "string") {
        issues.push(issue(file, entry, key, "expected the model's answer text (a string)"));
        continue;
      }
      const digits = FIRST_DIGITS.exec(key);
      answers.push({ round: digits ? Number(digits[1]) : 0, key, text: value });
    }
    answers.sort((a, b) => a.round - b.round);
    items.push({ id: parsed.data.id, category: parsed.data.category, task: parsed.data.task, answers });
  });
  return issues.length ? err(...issues) : ok(items);
}
