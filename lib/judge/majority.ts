// The one panel rule of the app, for every reader and writer of verdicts: a judge's majority over its samples of one
// question, then the panel members' majority. Errors never count as votes; ties fail (the official rule reads any
// "false" as a failure, so a split is a fail, and the result does not depend on sample order).

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

/** One judge's verdict on an item: the majority of its answered samples, a tie failing; null without an answer. */
export function sampleMajority(samples: readonly (boolean | null)[]): boolean | null {
  return majorityVerdict(samples).verdict;
}

/**
 * The panel's verdict on one item: each member's majority over its own samples, then the majority over members,
 * ties failing at both levels. Null when a member has no answered sample: a panel verdict rests on every member.
 * Pooling all samples instead lets one member with many samples outvote the others, so no caller does that.
 */
export function panelVerdict(members: readonly string[], samplesByMember: ReadonlyMap<string, readonly (boolean | null)[]>): boolean | null {
  if (members.length === 0) return null;
  const memberVerdicts: boolean[] = [];
  for (const member of members) {
    const verdict = sampleMajority(samplesByMember.get(member) ?? []);
    if (verdict === null) return null;
    memberVerdicts.push(verdict);
  }
  return majorityVerdict(memberVerdicts).verdict;
}
