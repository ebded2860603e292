// The `grade --input` contract: a JSON list of cases in, `{results: [...]}` out, in exactly the shapes the issue fixes.
// Pure: parsing returns issues naming the case index, its id and the field; grading never throws.

import { z } from "zod";
import { err, ok, type Result } from "../result";
import { FORMULA_IDS, type GradingIssue } from "./formulas";
import { gradeCase, type GradeResult } from "./grade";

const countSchema = z.number().int().nonnegative();

const criterionSchema = z
  .object({
    name: z.string().min(1),
    formula: z.enum(FORMULA_IDS),
    raw: z.union([
      z.number(),
      z.object({ wins: countSchema, losses: countSchema, ties: countSchema }).strict(),
      z.object({ passed: countSchema, total: countSchema }).strict(),
    ]),
    weight: z.number().nonnegative(),
    critical_floor: z.number().min(0).max(1).optional(),
    params: z.object({ slo_good: z.number(), slo_bad: z.number() }).strict().optional(),
  })
  .strict();

const caseSchema = z
  .object({
    id: z.union([z.string().min(1), z.number()]).transform(String),
    hard_gates: z.record(z.string(), z.boolean()),
    pass_threshold: z.number().min(0).max(100).optional(),
    sample_count: z.number().int().nonnegative().optional(),
    criteria: z.array(criterionSchema).min(1),
  })
  .strict();

export type GradeCaseInput = z.infer<typeof caseSchema>;

export interface ContractResult {
  id: string;
  passed: boolean;
  grade: GradeResult["grade"];
  weighted_100: number;
  gate_failures: string[];
  floor_failures: string[];
  criteria: { name: string; norm: number; adjusted_norm: number }[];
  reasons: string[];
}

function caseLabel(index: number, raw: unknown): string {
  const id = typeof raw === "object" && raw !== null && "id" in raw ? (raw as { id: unknown }).id : undefined;
  return typeof id === "string" || typeof id === "number" ? `case ${index} (id ${JSON.stringify(id)})` : `case ${index}`;
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("").replace(/^\./, "") || "(case)";
}

/** Validates the whole list; every issue says which case (index and id) and which field is wrong. */
export function parseGradeCases(value: unknown): Result<GradeCaseInput[], GradingIssue> {
  if (!Array.isArray(value)) return err({ code: "not-a-list", message: "input must be a JSON list of cases", path: [] });
  const cases: GradeCaseInput[] = [];
  const issues: GradingIssue[] = [];
  const seen = new Map<string, number>();
  value.forEach((raw, index) => {
    const parsed = caseSchema.safeParse(raw);
    if (!parsed.success) {
      for (const found of parsed.error.issues) {
        issues.push({ code: "invalid-case", message: `${caseLabel(index, raw)}: field ${fieldPath(found.path)}: ${found.message}`, path: [index, ...found.path.map((part) => (typeof part === "symbol" ? String(part) : part))] });
      }
      return;
    }
    const earlier = seen.get(parsed.data.id);
    if (earlier !== undefined) issues.push({ code: "duplicate-id", message: `${caseLabel(index, raw)}: field id: repeats case ${earlier}`, path: [index, "id"] });
    seen.set(parsed.data.id, index);
    cases.push(parsed.data);
  });
  return issues.length > 0 ? err(...issues) : ok(cases);
}

/** Grades every case; an issue from the algorithm (e.g. a formula's parameter) is reported with its case. */
export function gradeCases(cases: readonly GradeCaseInput[]): Result<{ results: ContractResult[]; details: GradeResult[] }, GradingIssue> {
  const results: ContractResult[] = [];
  const details: GradeResult[] = [];
  const issues: GradingIssue[] = [];
  cases.forEach((input, index) => {
    const graded = gradeCase({
      id: input.id,
      gates: Object.entries(input.hard_gates).map(([name, passed]) => ({ name, passed })),
      criteria: input.criteria.map((criterion) => ({ ...criterion })),
      ...(input.pass_threshold !== undefined ? { pass_threshold: input.pass_threshold } : {}),
      ...(input.sample_count !== undefined ? { sample_count: input.sample_count } : {}),
    });
    if (!graded.ok) {
      for (const found of graded.issues) {
        issues.push({ ...found, message: `case ${index} (id ${JSON.stringify(input.id)}): field ${fieldPath(found.path)}: ${found.message}`, path: [index, ...found.path] });
      }
      return;
    }
    details.push(graded.value);
    results.push(toContractResult(graded.value));
  });
  return issues.length > 0 ? err(...issues) : ok({ results, details });
}

export function toContractResult(result: GradeResult): ContractResult {
  return {
    id: result.id,
    passed: result.passed,
    grade: result.grade,
    weighted_100: result.weighted_100,
    gate_failures: result.gate_failures,
    floor_failures: result.floor_failures,
    criteria: result.criteria.filter((criterion) => criterion.applicable).map((criterion) => ({ name: criterion.name, norm: criterion.norm as number, adjusted_norm: criterion.adjusted_norm as number })),
    reasons: result.reasons,
  };
}
