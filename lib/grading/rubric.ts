// Rubrics as YAML in the scoring guide's shape (§7): versioned criteria with definition, evidence, scale, anchors,
// weight and optional critical floor, plus hard gates. Pure: parsing returns issues naming file, criterion and field.

import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { err, ok, type Result } from "../result";
import { isFormulaId, normalize, FORMULA_IDS, type FormulaId, type FormulaParams } from "./formulas";
import { TIE_BREAK_ROLES } from "./tie-break";

/** A rubric problem, e.g. `rubrics/x.yaml: criterion "correctness" (criteria[0]): field anchors: missing "4"`. */
export interface RubricIssue {
  file: string;
  criterion: string | null;
  field: string;
  message: string;
}

export function formatRubricIssue(found: RubricIssue): string {
  return `${found.file}: ${found.criterion ? `${found.criterion}: ` : ""}field ${found.field}: ${found.message}`;
}

const scaleSchema = z.tuple([z.number(), z.number()]).refine(([low, high]) => low < high, "scale must be [low, high] with low < high");

const criterionSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_]*$/, "use snake_case letters, digits and underscores"),
    definition: z.string().min(1),
    evidence_required: z.array(z.string().min(1)).min(1),
    scale: scaleSchema,
    formula: z.enum(FORMULA_IDS).optional(),
    anchors: z.record(z.string(), z.string().min(1)),
    weight: z.number().nonnegative(),
    critical_floor: z.number().optional(),
    params: z.object({ slo_good: z.number(), slo_bad: z.number() }).strict().optional(),
    /** Which stored measurement feeds the criterion when grading a run (see lib/grading/chat2workflow.ts). */
    source: z.string().min(1).optional(),
    /** The evidence metric that feeds the criterion, when it is not the criterion's own name (lib/grading/evidence.ts). */
    metric: z.string().min(1).optional(),
    /** Which §5.2 tie-breaker reads this criterion: correctness, safety, latency (p95 of raw) or cost (mean of raw). */
    tie_break: z.enum(TIE_BREAK_ROLES).optional(),
  })
  .strict();

const gateSchema = z
  .object({
    name: z.string().regex(/^[a-z][a-z0-9_]*$/, "use snake_case letters, digits and underscores"),
    description: z.string().min(1),
    source: z.string().min(1).optional(),
    /** Decide the gate from an evidence metric, e.g. FAIL_TO_PASS == 1.0 (§4.1), instead of a stated outcome. */
    derive: z.object({ metric: z.string().min(1), op: z.enum([">=", "=="]), value: z.number() }).strict().optional(),
  })
  .strict();

export type RubricGate = z.infer<typeof gateSchema>;

const rubricSchema = z
  .object({
    rubric_id: z.string().regex(/^[a-z][a-z0-9_]*$/, "use snake_case letters, digits and underscores"),
    version: z.number().int().positive(),
    title: z.string().min(1),
    description: z.string().optional(),
    family: z.string().optional(),
    pass_threshold: z.number().min(0).max(100).default(70),
    hard_gates: z.array(gateSchema).default([]),
    criteria: z.array(criterionSchema).min(1),
  })
  .strict();

export type RubricCriterionSpec = z.infer<typeof criterionSchema>;

export interface RubricCriterion extends Omit<RubricCriterionSpec, "formula" | "critical_floor" | "params"> {
  formula: FormulaId;
  /** The floor as written, on the criterion's scale. */
  critical_floor_raw: number | null;
  /** The floor on the normalised 0..1 scale the algorithm compares against. */
  critical_floor: number | null;
  params?: FormulaParams;
}

export interface Rubric {
  rubric_id: string;
  version: number;
  title: string;
  description: string | null;
  family: string | null;
  pass_threshold: number;
  hard_gates: RubricGate[];
  criteria: RubricCriterion[];
}

/** The formula a scale implies when none is named: the guide's Likert scales and 0..1 metrics. */
function impliedFormula(scale: readonly [number, number]): FormulaId | null {
  if (scale[0] === 1 && scale[1] === 5) return "likert_1_5";
  if (scale[0] === -2 && scale[1] === 2) return "likert_neg2_2";
  if (scale[0] === 0 && scale[1] === 1) return "clamp01";
  return null;
}

/** Integer scales (Likert, binary) need an anchor for every point; continuous ones at least both ends. */
function missingAnchors(formula: FormulaId, scale: readonly [number, number], anchors: Record<string, string>): string[] {
  const wanted: number[] = [];
  if (formula === "likert_1_5" || formula === "likert_neg2_2" || formula === "binary") {
    for (let point = scale[0]; point <= scale[1]; point += 1) wanted.push(point);
  } else {
    wanted.push(scale[0], scale[1]);
  }
  return wanted.map(String).filter((point) => !(point in anchors));
}

/** Floors are written on the criterion's own scale (as in the guide's example, `critical_floor: 3` on 1..5). */
function floorOnNormalisedScale(formula: FormulaId, floor: number, params: FormulaParams | undefined): Result<number, string> {
  if (formula === "likert_1_5" || formula === "likert_neg2_2" || formula === "lower_is_better") {
    const normalised = normalize(formula, floor, params);
    return normalised.ok ? ok(normalised.value) : err(normalised.issues.map((found) => found.message).join("; "));
  }
  return floor >= 0 && floor <= 1 ? ok(floor) : err(`a ${formula} floor must lie in 0..1, got ${floor}`);
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((part) => (typeof part === "number" ? `[${part}]` : `.${String(part)}`)).join("").replace(/^\./, "") || "(rubric)";
}

/** Parses and validates one rubric file's text; `knownSources` (when given) limits the `source` names allowed. */
export function parseRubric(file: string, text: string, knownSources?: { gates: readonly string[]; criteria: readonly string[] }): Result<Rubric, RubricIssue> {
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (error) {
    return err({ file, criterion: null, field: "(yaml)", message: error instanceof Error ? error.message.split("\n")[0]! : String(error) });
  }
  const parsed = rubricSchema.safeParse(data);
  const rawCriteria = typeof data === "object" && data !== null && Array.isArray((data as { criteria?: unknown }).criteria) ? ((data as { criteria: unknown[] }).criteria) : [];
  const criterionLabel = (index: number): string => {
    const name = (rawCriteria[index] as { name?: unknown } | undefined)?.name;
    return typeof name === "string" ? `criterion "${name}" (criteria[${index}])` : `criteria[${index}]`;
  };
  if (!parsed.success) {
    return err(
      ...parsed.error.issues.map((found) => {
        const [head, index, ...rest] = found.path;
        if (head === "criteria" && typeof index === "number") return { file, criterion: criterionLabel(index), field: pathText(rest), message: found.message };
        return { file, criterion: null, field: pathText(found.path), message: found.message };
      }),
    );
  }
  const spec = parsed.data;
  const issues: RubricIssue[] = [];
  const names = new Set<string>();
  const criteria: RubricCriterion[] = [];
  spec.criteria.forEach((criterion, index) => {
    const label = criterionLabel(index);
    if (names.has(criterion.name)) issues.push({ file, criterion: label, field: "name", message: "repeats an earlier criterion's name" });
    names.add(criterion.name);
    const formula = criterion.formula ?? impliedFormula(criterion.scale);
    if (formula === null || !isFormulaId(formula)) {
      issues.push({ file, criterion: label, field: "formula", message: `scale [${criterion.scale.join(", ")}] implies no formula; name one of ${FORMULA_IDS.join(", ")}` });
      return;
    }
    if (formula === "lower_is_better" && !criterion.params) issues.push({ file, criterion: label, field: "params", message: "lower_is_better needs params {slo_good, slo_bad}" });
    if (criterion.params && !(criterion.params.slo_bad > criterion.params.slo_good)) issues.push({ file, criterion: label, field: "params", message: "slo_bad must be greater than slo_good" });
    const missing = missingAnchors(formula, criterion.scale, criterion.anchors);
    if (missing.length > 0) issues.push({ file, criterion: label, field: "anchors", message: `missing anchor${missing.length > 1 ? "s" : ""} for ${missing.map((point) => `"${point}"`).join(", ")}` });
    if (knownSources && criterion.source && !knownSources.criteria.includes(criterion.source)) {
      issues.push({ file, criterion: label, field: "source", message: `unknown measure "${criterion.source}"; known: ${knownSources.criteria.join(", ")}` });
    }
    let floor: number | null = null;
    if (criterion.critical_floor !== undefined) {
      if (criterion.critical_floor < Math.min(...criterion.scale) || criterion.critical_floor > Math.max(...criterion.scale)) {
        if (formula !== "lower_is_better") issues.push({ file, criterion: label, field: "critical_floor", message: `${criterion.critical_floor} lies outside the scale [${criterion.scale.join(", ")}]` });
      }
      const normalised = floorOnNormalisedScale(formula, criterion.critical_floor, criterion.params);
      if (normalised.ok) floor = normalised.value;
      else issues.push({ file, criterion: label, field: "critical_floor", message: normalised.issues.join("; ") });
    }
    const { formula: _formula, critical_floor: _floor, ...rest } = criterion;
    criteria.push({ ...rest, formula, critical_floor_raw: criterion.critical_floor ?? null, critical_floor: floor });
  });
  for (const role of TIE_BREAK_ROLES) {
    const holders = spec.criteria.filter((criterion) => criterion.tie_break === role);
    if (holders.length > 1) issues.push({ file, criterion: null, field: "criteria", message: `tie_break "${role}" is given to ${holders.map((criterion) => criterion.name).join(" and ")}; one criterion per tie-breaker` });
  }
  if (spec.criteria.every((criterion) => criterion.weight === 0)) issues.push({ file, criterion: null, field: "criteria", message: "at least one criterion needs a positive weight" });
  const gateNames = new Set<string>();
  spec.hard_gates.forEach((gate, index) => {
    if (gateNames.has(gate.name)) issues.push({ file, criterion: null, field: `hard_gates[${index}].name`, message: `gate "${gate.name}" appears twice` });
    gateNames.add(gate.name);
    if (knownSources && gate.source && !knownSources.gates.includes(gate.source)) {
      issues.push({ file, criterion: null, field: `hard_gates[${index}].source`, message: `unknown gate measure "${gate.source}"; known: ${knownSources.gates.join(", ")}` });
    }
  });
  if (issues.length > 0) return err(...issues);
  return ok({
    rubric_id: spec.rubric_id,
    version: spec.version,
    title: spec.title,
    description: spec.description ?? null,
    family: spec.family ?? null,
    pass_threshold: spec.pass_threshold,
    hard_gates: spec.hard_gates,
    criteria,
  });
}
