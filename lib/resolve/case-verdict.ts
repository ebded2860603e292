// A test case's verdict once Dify ran it (official resolve stage §4, with "not judged" made explicit): a failed run,
// no outputs or a failed file check fail it; outputs that all went to the file checks pass it without a judge; text
// outputs are the judge's to decide, and until an LLM judge (or panel) has answered they are not judged (null),
// neither resolved nor failed. A panel's verdict is panelVerdict's (lib/judge/majority), the app's one panel rule. Pure.

/** The verdict of a case whose checks passed: `shown` text outputs, and the judge's verdict when one answered. */
export function caseVerdictAfterChecks(shown: number, judged: boolean | null): boolean | null {
  return shown === 0 ? true : judged;
}
