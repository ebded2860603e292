// Majority verdicts at read time: over the K samples one judge gave for an item, and over the members of a panel.
// Ties fail (a verdict passes only with strictly more passes than fails), the same rule the SQL applies.

/**
 * The majority of one judge's samples: true when more samples pass than fail. A tie (possible with an even K) is a
 * fail: an item the judge is split on is not counted as passed, and the result does not depend on sample order.
 * Null when there are no samples.
 */
export function sampleMajority(samples: readonly boolean[]): boolean | null {
  if (samples.length === 0) return null;
  const passes = samples.filter(Boolean).length;
  return passes * 2 > samples.length;
}

/**
 * A panel's verdict: each member's sample majority, then the majority over members with the same tie rule. Null
 * when any member has not judged the item: a panel verdict always rests on every member.
 */
export function panelMajority(members: readonly string[], samplesByJudge: ReadonlyMap<string, readonly boolean[]>): boolean | null {
  if (members.length === 0) return null;
  let passes = 0;
  for (const member of members) {
    const verdict = sampleMajority(samplesByJudge.get(member) ?? []);
    if (verdict === null) return null;
    if (verdict) passes += 1;
  }
  return passes * 2 > members.length;
}
