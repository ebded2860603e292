// Majority over a judge's samples of one question (or over a panel's verdicts). Errors never count as votes.
// Ties resolve to fail by default: the official rule already reads any "false" as a failure, so a split is a fail.

export type TiePolicy = "fail" | "pass" | "undecided";

/** The most samples one judge is asked per question: odd, so a majority needs no tie rule, and a bounded cost. */
export const MAX_JUDGE_SAMPLES = 9;

export interface MajorityVerdict {
  /** null when no sample answered, or on a tie under the "undecided" policy. */
  verdict: boolean | null;
  pass: number;
  fail: number;
  /** Samples that produced no verdict (errors, cancelled). */
  missing: number;
  tie: boolean;
}

/** Majority of the answered samples; `null` entries are samples without a verdict. */
export function majorityVerdict(samples: readonly (boolean | null)[], tie: TiePolicy = "fail"): MajorityVerdict {
  let pass = 0;
  let fail = 0;
  for (const sample of samples) {
    if (sample === true) pass += 1;
    else if (sample === false) fail += 1;
  }
  const missing = samples.length - pass - fail;
  const isTie = pass === fail && pass > 0;
  let verdict: boolean | null;
  if (pass + fail === 0) verdict = null;
  else if (!isTie) verdict = pass > fail;
  else verdict = tie === "undecided" ? null : tie === "pass";
  return { verdict, pass, fail, missing, tie: isTie };
}
