// Two responses' verdicts side by side (our steps 1.1–1.3, the rule judge, the recorded verdict, the resolve tests),
// each row flagged where the sides differ.

export interface VerdictInput {
  /** Our reproduction of the official steps 1.1–1.3 (recomputed). */
  officialFailStep: string | null;
  /** The rule judge (step 1.4); null when it could not run (the JSON does not parse). */
  ruleJudge: boolean | null;
  /** Our verdict's fail step (official steps, then the rule judge). */
  failStep: string | null;
  /** The recorded (official run file) verdict; null for raw output, which has none. */
  recorded: { valid: boolean | null; failStep: string | null } | null;
  /** Stored resolve-stage results per test case; a null verdict is not judged yet. */
  resolve: { hasResolve: boolean; cases: readonly { position: number; verdict: boolean | null }[] };
}

export type VerdictTone = "good" | "bad" | "neutral";

export interface VerdictCell {
  text: string;
  tone: VerdictTone;
  /** Extra line (e.g. per-test results). */
  detail?: string;
}

export interface VerdictRow {
  id: "official" | "rule-judge" | "ours" | "recorded" | "resolve";
  label: string;
  a: VerdictCell;
  b: VerdictCell;
  differs: boolean;
}

const STEP_TEXT: Readonly<Record<string, string>> = {
  step_1_1: "step 1.1 (tags and JSON)",
  step_1_2: "step 1.2 (conversion)",
  step_1_3: "step 1.3 (inputs and outputs)",
  step_1_4: "step 1.4 (node judge)",
  step_1_5: "step 1.5",
};

export function stepText(step: string): string {
  return STEP_TEXT[step] ?? step;
}

function failOrPass(step: string | null): VerdictCell {
  return step === null ? { text: "passes", tone: "good" } : { text: `fails at ${stepText(step)}`, tone: "bad" };
}

function cells(input: VerdictInput): Record<VerdictRow["id"], VerdictCell> {
  const recorded: VerdictCell =
    input.recorded === null || input.recorded.valid === null
      ? { text: "none (raw model output)", tone: "neutral" }
      : input.recorded.valid
        ? { text: "valid", tone: "good" }
        : { text: input.recorded.failStep ? `invalid, ${stepText(input.recorded.failStep)}` : "invalid", tone: "bad" };
  const { hasResolve, cases } = input.resolve;
  const sorted = [...cases].sort((x, y) => x.position - y.position);
  const passed = sorted.filter((c) => c.verdict === true).length;
  const notJudged = sorted.filter((c) => c.verdict === null).length;
  const resolve: VerdictCell = !hasResolve
    ? { text: "no resolve results for this run", tone: "neutral" }
    : sorted.length === 0
      ? { text: "not run (did not pass)", tone: "neutral" }
      : {
          text: notJudged > 0 ? `${passed} / ${sorted.length} tests resolved, ${notJudged} not judged` : `${passed} / ${sorted.length} tests resolved`,
          tone: notJudged > 0 ? "neutral" : passed === sorted.length ? "good" : passed === 0 ? "bad" : "neutral",
          detail: sorted.map((c) => `test ${c.position} ${c.verdict === null ? "not judged" : c.verdict ? "✓" : "✗"}`).join(" · "),
        };
  return {
    official: failOrPass(input.officialFailStep),
    "rule-judge": input.ruleJudge === null ? { text: "not reached (no parsed workflow)", tone: "neutral" } : input.ruleJudge ? { text: "pass", tone: "good" } : { text: "fail", tone: "bad" },
    ours: input.failStep === null ? { text: "valid", tone: "good" } : { text: `invalid, ${stepText(input.failStep)}`, tone: "bad" },
    recorded,
    resolve,
  };
}

const LABELS: Readonly<Record<VerdictRow["id"], string>> = {
  official: "Official steps 1.1–1.3 (our reproduction)",
  "rule-judge": "Rule judge (step 1.4)",
  ours: "Our verdict",
  recorded: "Recorded verdict",
  resolve: "Resolve tests",
};

export function verdictRows(a: VerdictInput, b: VerdictInput): VerdictRow[] {
  const left = cells(a);
  const right = cells(b);
  return (Object.keys(LABELS) as VerdictRow["id"][]).map((id) => ({
    id,
    label: LABELS[id],
    a: left[id],
    b: right[id],
    differs: left[id].text !== right[id].text || (left[id].detail ?? "") !== (right[id].detail ?? ""),
  }));
}

/** A side's verdict input: recomputed verdicts (from the comparison) and the stored record and resolve results. */
export function verdictInputOf(
  verdict: { officialFailStep: string | null; ruleJudge: boolean | null; failStep: string | null },
  stored: { recorded: VerdictInput["recorded"]; cases: VerdictInput["resolve"]["cases"]; run: { hasResolve: boolean } },
): VerdictInput {
  return {
    officialFailStep: verdict.officialFailStep,
    ruleJudge: verdict.ruleJudge,
    failStep: verdict.failStep,
    recorded: stored.recorded,
    resolve: { hasResolve: stored.run.hasResolve, cases: stored.cases },
  };
}
