// Majority verdicts at read time: over the K samples one judge gave for an item, and over the members of a panel.
// Ties fail, the same rule the SQL applies; the counting itself is lib/judge/majority (one home for the rule).
// lib/judge is the official judge protocol; lib/judges (this folder) is judge choice, agreement and calibration for the views.
import { majorityVerdict } from "../judge/majority";

/**
 * The majority of one judge's samples: true when more samples pass than fail. A tie (possible with an even K) is a
 * fail: an item the judge is split on is not counted as passed, and the result does not depend on sample order.
 * Null when there are no samples.
 */
export function sampleMajority(samples: readonly boolean[]): boolean | null {
  return majorityVerdict(samples).verdict;
}

/**
 * A panel's verdict: each member's sample majority, then the majority over members with the same tie rule. Null
 * when any member has not judged the item: a panel verdict always rests on every member.
 */
export function panelMajority(members: readonly string[], samplesByJudge: ReadonlyMap<string, readonly boolean[]>): boolean | null {
  const memberVerdicts: boolean[] = [];
  for (const member of members) {
    const verdict = sampleMajority(samplesByJudge.get(member) ?? []);
    if (verdict === null) return null;
    memberVerdicts.push(verdict);
  }
  return majorityVerdict(memberVerdicts).verdict;
}
