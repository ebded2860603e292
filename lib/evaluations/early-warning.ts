// Early warnings of an evaluation that is going nowhere, and the words its final status is said in. Pure: the
// progress read model passes the turns stored so far (in the order they were stored) and the failed calls.

/** How many stored turns the first-turns warnings look at. */
export const EARLY_TURNS = 5;

export interface StoredTurn {
  responseId: string;
  task: string;
  round: number;
  valid: boolean;
  /** Where it failed ("step_1_1"…), null when it passed. */
  failStep: string | null;
  /** Every generation attempt of the turn came back without the tagged sections. */
  noTags: boolean;
}

export type EarlyWarningKind = "no-tags" | "one-step" | "errors";

export interface EarlyWarning {
  kind: EarlyWarningKind;
  message: string;
  /** Turns to look at first (at most 3). */
  examples: { responseId: string; label: string }[];
}

const STEP_NAMES: Readonly<Record<string, string>> = {
  step_1_1: "step 1.1 (tags and JSON)",
  step_1_2: "step 1.2 (conversion to Dify)",
  step_1_3: "step 1.3 (input and output variables)",
  step_1_4: "step 1.4 (node judge)",
  step_1_5: "step 1.5",
};

export const stepName = (step: string): string => STEP_NAMES[step] ?? step;

const examplesOf = (turns: readonly StoredTurn[]) => turns.slice(0, 3).map((turn) => ({ responseId: turn.responseId, label: `${turn.task} round ${turn.round}` }));

/**
 * What the first EARLY_TURNS stored turns say: every reply without tags, every turn failing at one step, or calls
 * failing (`errors` of the turns attempted so far). Nothing before enough turns are in, and nothing once one passes.
 */
export function earlyWarnings(storedInOrder: readonly StoredTurn[], errors: { count: number; first: string | null }): EarlyWarning[] {
  const warnings: EarlyWarning[] = [];
  const first = storedInOrder.slice(0, EARLY_TURNS);
  if (first.length === EARLY_TURNS && first.every((turn) => !turn.valid)) {
    if (first.every((turn) => turn.noTags)) {
      warnings.push({
        kind: "no-tags",
        message: `None of the first ${EARLY_TURNS} turns' replies has the tagged sections (<node_selection>, <design_principle>, <workflow>): the model may not follow the prompt's format, or the endpoint may not be the model you meant.`,
        examples: examplesOf(first),
      });
    } else {
      const step = first[0]!.failStep;
      if (step !== null && first.every((turn) => turn.failStep === step)) {
        warnings.push({ kind: "one-step", message: `All of the first ${EARLY_TURNS} turns failed at ${stepName(step)}.`, examples: examplesOf(first) });
      }
    }
  }
  if (errors.count > 0 && errors.count >= Math.min(EARLY_TURNS, Math.max(1, storedInOrder.length))) {
    warnings.push({ kind: "errors", message: `${errors.count} call${errors.count === 1 ? "" : "s"} failed${errors.first ? `, e.g. ${errors.first}` : ""}.`, examples: [] });
  }
  return warnings;
}

/**
 * The final status in words: a finished evaluation whose every stored turn failed at one step says so instead of a
 * plain "finished"; null while it runs.
 */
export function finalStatusText(status: string, stored: readonly Pick<StoredTurn, "valid" | "failStep" | "noTags">[]): { text: string; tone: "good" | "bad" | "neutral" } | null {
  if (status === "running") return null;
  const verb = status === "succeeded" ? "Finished" : status === "cancelled" ? "Cancelled" : "Failed";
  if (stored.length === 0) return { text: `${verb}: no turn was stored.`, tone: "bad" };
  const passed = stored.filter((turn) => turn.valid).length;
  if (passed === 0) {
    const step = stored[0]!.failStep;
    const oneStep = step !== null && stored.every((turn) => turn.failStep === step);
    const noTags = stored.every((turn) => turn.noTags);
    const why = oneStep ? ` at ${stepName(step)}${noTags ? ": no reply had the tagged sections" : ""}` : "";
    return { text: `${verb}: all ${stored.length} stored turns failed${why}.`, tone: "bad" };
  }
  return { text: `${verb}: ${passed} of ${stored.length} stored turns pass.`, tone: status === "succeeded" ? "good" : "neutral" };
}
