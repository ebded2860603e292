// A test case's verdict once Dify ran it (official resolve stage §4, with "not judged" made explicit): a failed run,
// no outputs or a failed file check fail it; outputs that all went to the file checks pass it without a judge; text
// outputs are the judge's to decide, and until an LLM judge (or panel) has answered they are not judged (null),
// neither resolved nor failed. Pure.

import { panelMajority } from "@/lib/judges/majority";

/** The verdict of a case whose checks passed: `shown` text outputs, and the judge's verdict when one answered. */
export function caseVerdictAfterChecks(shown: number, judged: boolean | null): boolean | null {
  return shown === 0 ? true : judged;
}

/**
 * A panel's verdict on one case from its samples: each member's sample majority, then the members' majority (ties
 * fail); null when a member gave no verdict. The one place resolve verdicts call the panel rule.
 */
export function panelCaseVerdict(members: readonly string[], samples: ReadonlyMap<string, readonly boolean[]>): boolean | null {
  return panelMajority(members, samples);
}

/** How many cases are not judged. */
export function notJudgedCount(cases: readonly { verdict: boolean | null }[]): number {
  return cases.filter((entry) => entry.verdict === null).length;
}
