// Evidence files: per response, the gate outcomes with reasons, raw metric values, judge scores, latency and cost
// that any rubric profile grades from. The zod schema is the one source of the published JSON Schema. Pure.

import { z } from "zod";
import { err, ok, type Result } from "../result";
import { normalize, type GradingIssue, type RawScore } from "./formulas";
import { gradeCase, type CriterionInput, type GateInput, type GradeResult, type JudgeDisagreement } from "./grade";
import type { Rubric, RubricCriterion, RubricGate } from "./rubric";

const count = z.number().int().nonnegative();

const rawValueSchema = z.union([
  z.number().describe("A plain value on the criterion's scale (Likert point, 0..1 metric, milliseconds, …)"),
  z.object({ passed: count, total: count }).strict().describe("A ratio, e.g. 9 of 10 FAIL_TO_PASS tests green"),
  z.object({ wins: count, losses: count, ties: count }).strict().describe("Pairwise counts"),
]);

const judgeScoreSchema = z
  .object({
    judge: z.string().min(1).describe("Which judge (model or person) gave the score"),
    score: z.number().describe("The score on the criterion's scale"),
    sample: count.optional().describe("Sample index when one judge was asked several times"),
    prompt_version: z.string().min(1).optional(),
    reason: z.string().optional(),
  })
  .strict();

export const responseEvidenceSchema = z
  .object({
    id: z.string().min(1).describe("The response: a case id of your own, or a stored response's id or turn key (Task_1)"),
    gates: z
      .record(z.string(), z.object({ passed: z.boolean(), reason: z.string().min(1).optional() }).strict())
      .default({})
      .describe("Hard-gate outcomes by gate name, each with the reason"),
    metrics: z.record(z.string(), rawValueSchema).default({}).describe("Raw objective metric values by name (fail_to_pass, context_precision, …)"),
    judge_scores: z.record(z.string(), z.array(judgeScoreSchema).min(1)).default({}).describe("Judge scores by criterion name; several judges or samples give the disagreement"),
    latency_ms: z.number().nonnegative().optional().describe("Latency of the response, for the p95 latency tie-breaker"),
    cost: z.number().nonnegative().optional().describe("Cost of the response (any unit, the same across runs), for the cost tie-breaker"),
  })
  .strict();

export const evidenceFileSchema = z
  .object({
    $schema: z.string().optional(),
    run: z.string().min(1).optional().describe("A label for the run the evidence describes"),
    rubric_id: z.string().min(1).optional().describe("The profile the evidence was written for; grading with another rubric is refused"),
    responses: z.array(responseEvidenceSchema).min(1),
  })
  .strict()
  .describe("Evidence for grading one run with a rubric profile (scoring guide §4–§6)");

/** Server actions carry at most 1 MB; larger evidence files go through `npm run grade -- --evidence`. */
export const MAX_UPLOADED_EVIDENCE_CHARS = 900_000;

export type ResponseEvidence = z.infer<typeof responseEvidenceSchema>;
export type EvidenceFile = z.infer<typeof evidenceFileSchema>;

/** The JSON Schema the README links, generated from the zod schema above. */
export function evidenceJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(evidenceFileSchema, { io: "input" }) as Record<string, unknown>;
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("").replace(/^\./, "") || "(file)";
}

/** Validates an evidence file; issues name the entry (index and id) and the field. */
export function parseEvidence(file: string, value: unknown): Result<EvidenceFile, string> {
  const parsed = evidenceFileSchema.safeParse(value);
  if (!parsed.success) {
    const responses = typeof value === "object" && value !== null && Array.isArray((value as { responses?: unknown }).responses) ? (value as { responses: unknown[] }).responses : [];
    return err(
      ...parsed.error.issues.map((found) => {
        const [head, index, ...rest] = found.path;
        if (head === "responses" && typeof index === "number") {
          const id = (responses[index] as { id?: unknown } | undefined)?.id;
          return `${file} › responses[${index}]${typeof id === "string" ? ` (id ${JSON.stringify(id)})` : ""} › ${fieldPath(rest)}: ${found.message}`;
        }
        return `${file} › ${fieldPath(found.path)}: ${found.message}`;
      }),
    );
  }
  const seen = new Set<string>();
  const repeats = parsed.data.responses.flatMap((entry, index) => {
    if (seen.has(entry.id)) return [`${file} › responses[${index}] (id ${JSON.stringify(entry.id)}) › id: repeats an earlier response`];
    seen.add(entry.id);
    return [];
  });
  return repeats.length > 0 ? err(...repeats) : ok(parsed.data);
}

// -- reading a rubric's gates and criteria from evidence ------------------------------------------------------------

export interface EvidenceMeasure {
  raw: RawScore | null;
  notApplicable?: string;
  evidence?: string;
}

function asNumber(value: RawScore): number | null {
  if (typeof value === "number") return value;
  if ("passed" in value) return value.total === 0 ? null : value.passed / value.total;
  return null;
}

function describeRaw(value: RawScore): string {
  if (typeof value === "number") return String(value);
  if ("passed" in value) return `${value.passed} of ${value.total}`;
  return `${value.wins} wins, ${value.losses} losses, ${value.ties} ties`;
}

const fmt = (value: number) => String(Number(value.toFixed(4)));

/** A gate from evidence: a derived rule (Profile A's FAIL_TO_PASS == 1.0) decides from the metric; else the stated outcome. */
export function gateFromEvidence(gate: RubricGate, evidence: ResponseEvidence): Result<GateInput | null, string> {
  const stated = evidence.gates[gate.name];
  if (gate.derive) {
    const { metric, op, value: bound } = gate.derive;
    const raw = evidence.metrics[metric];
    if (raw === undefined) return stated ? ok({ name: gate.name, passed: stated.passed, ...(stated.reason ? { reason: stated.reason } : {}) }) : ok(null);
    const value = asNumber(raw);
    if (value === null) return err(`gate ${gate.name}: metric ${metric} must be a number or {passed, total} with total > 0, got ${JSON.stringify(raw)}`);
    const passed = op === "==" ? Math.abs(value - bound) < 1e-12 : value >= bound - 1e-12;
    if (stated && stated.passed !== passed) return err(`gate ${gate.name}: stated ${stated.passed ? "passed" : "failed"}, but ${metric} = ${fmt(value)} ${passed ? "meets" : "misses"} ${op} ${bound}`);
    const shown = typeof raw === "number" ? fmt(value) : `${fmt(value)} (${describeRaw(raw)})`;
    return ok({ name: gate.name, passed, reason: `${metric} = ${shown}, ${passed ? "meets" : "misses"} ${metric} ${op} ${bound}` });
  }
  return ok(stated ? { name: gate.name, passed: stated.passed, ...(stated.reason ? { reason: stated.reason } : {}) } : null);
}

function mean(values: readonly number[]): number {
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** A criterion from evidence: its metric (`metric:` or its name), else the mean of its judge scores; else missing. */
export function criterionFromEvidence(criterion: RubricCriterion, evidence: ResponseEvidence): EvidenceMeasure | null {
  const key = criterion.metric ?? criterion.name;
  const metric = evidence.metrics[key];
  if (metric !== undefined) {
    // A ratio feeds 0..1 criteria as its share, so FAIL_TO_PASS can be written either way (§4.1).
    const raw = criterion.formula !== "ratio" && typeof metric === "object" && "passed" in metric ? asNumber(metric) : metric;
    return raw === null ? { raw: null, notApplicable: `metric ${key} has total 0` } : { raw, evidence: `metric ${key} = ${describeRaw(metric)}` };
  }
  const scores = evidence.judge_scores[criterion.name];
  if (scores && scores.length > 0) {
    const values = scores.map((entry) => entry.score);
    return { raw: mean(values), evidence: `judge score${scores.length > 1 ? `s ${values.join(", ")} (mean)` : ` ${values[0]}`} by ${[...new Set(scores.map((entry) => entry.judge))].join(", ")}` };
  }
  return null;
}

/** §5.2 "low judge disagreement" from evidence: the widest normalised spread of one criterion's judge scores. */
export const SCORE_SPREAD_LIMIT = 0.25;

export function judgeScoreDisagreement(rubric: Rubric, evidence: ResponseEvidence): JudgeDisagreement | null {
  let widest: { value: number; detail: string } | null = null;
  for (const criterion of rubric.criteria) {
    const scores = evidence.judge_scores[criterion.name];
    if (!scores || scores.length < 2) continue;
    const norms = scores.map((entry) => normalize(criterion.formula, entry.score, criterion.params)).flatMap((found) => (found.ok ? [found.value] : []));
    if (norms.length < 2) continue;
    const spread = Math.max(...norms) - Math.min(...norms);
    if (widest === null || spread > widest.value) widest = { value: spread, detail: `${criterion.name} scores ${scores.map((entry) => entry.score).join(", ")}` };
  }
  return widest && { value: widest.value, limit: SCORE_SPREAD_LIMIT, detail: widest.detail };
}

export interface EvidenceGrade {
  id: string;
  result: GradeResult;
  /** Gates and weighted criteria the evidence did not supply, by name. */
  missing: { gates: string[]; criteria: string[] };
}

/** Grades one response's evidence with a rubric. A missing gate fails (it cannot let a response through unseen). */
export function gradeEvidence(rubric: Rubric, evidence: ResponseEvidence, sampleCount = 1): Result<EvidenceGrade, GradingIssue> {
  const missing = { gates: [] as string[], criteria: [] as string[] };
  const issues: GradingIssue[] = [];
  const gates: GateInput[] = rubric.hard_gates.map((gate) => {
    const found = gateFromEvidence(gate, evidence);
    if (!found.ok) {
      issues.push(...found.issues.map((message) => ({ code: "evidence-gate", message, path: ["gates", gate.name] })));
      return { name: gate.name, passed: false };
    }
    if (found.value === null) {
      missing.gates.push(gate.name);
      return { name: gate.name, passed: false, reason: `missing: the evidence has no outcome for this gate${gate.derive ? ` nor the metric ${gate.derive.metric}` : ""}` };
    }
    return found.value;
  });
  const criteria: CriterionInput[] = rubric.criteria.map((criterion) => {
    const base = criterionBase(criterion);
    const measured = criterionFromEvidence(criterion, evidence);
    if (measured === null) {
      if (criterion.weight > 0) missing.criteria.push(criterion.name);
      return { ...base, raw: null, notApplicable: `missing: the evidence has no metric ${criterion.metric ?? criterion.name} and no judge score for it` };
    }
    return { ...base, raw: measured.raw, ...(measured.notApplicable ? { notApplicable: measured.notApplicable } : {}), ...(measured.evidence ? { evidence: measured.evidence } : {}) };
  });
  if (issues.length > 0) return err(...issues);
  if (rubric.criteria.every((criterion) => criterion.weight === 0 || missing.criteria.includes(criterion.name))) {
    return err({ code: "no-criterion-supplied", message: `the evidence supplies no weighted criterion of ${rubric.rubric_id}; missing: ${missing.criteria.join(", ")}`, path: ["criteria"] });
  }
  const disagreement = judgeScoreDisagreement(rubric, evidence);
  const graded = gradeCase({
    id: evidence.id,
    gates,
    criteria,
    pass_threshold: rubric.pass_threshold,
    sample_count: sampleCount,
    ...(disagreement ? { judge_disagreement: disagreement } : {}),
    operations: { latency_ms: evidence.latency_ms ?? null, cost: evidence.cost ?? null },
  });
  return graded.ok ? ok({ id: evidence.id, result: graded.value, missing }) : graded;
}

export function criterionBase(criterion: RubricCriterion): Omit<CriterionInput, "raw"> {
  return {
    name: criterion.name,
    formula: criterion.formula,
    weight: criterion.weight,
    ...(criterion.critical_floor !== null ? { critical_floor: criterion.critical_floor } : {}),
    ...(criterion.params ? { params: criterion.params } : {}),
  };
}

/** Grades a whole evidence file; refuses one written for another rubric, and issues name the response. */
export function gradeEvidenceFile(rubric: Rubric, file: EvidenceFile): Result<EvidenceGrade[], string> {
  if (file.rubric_id !== undefined && file.rubric_id !== rubric.rubric_id) return err(`the evidence was written for rubric ${file.rubric_id}, not ${rubric.rubric_id}`);
  const graded: EvidenceGrade[] = [];
  const problems: string[] = [];
  file.responses.forEach((entry, index) => {
    const result = gradeEvidence(rubric, entry);
    if (result.ok) graded.push(result.value);
    else problems.push(...result.issues.map((found) => `responses[${index}] (id ${JSON.stringify(entry.id)}): ${found.message}`));
  });
  return problems.length > 0 ? err(...problems) : ok(graded);
}
