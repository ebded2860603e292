// Shared vocabulary of the statistics core: the issue record bad input produces and the counted proportion.
// Pure and total: nothing here throws; a proportion over zero items has a null rate rather than NaN.

/** Why a statistics function refused its input. Codes are stable, kebab-case and never renamed once shipped. */
export interface StatsIssue {
  code: string;
  message: string;
  /** Where in the input the problem sits, e.g. [3, "casesPassed"] for the fourth outcome's field. */
  path?: (string | number)[];
}

/** A count out of a total; `rate` is null when nothing was counted, so no caller ever renders NaN. */
export interface Proportion {
  num: number;
  den: number;
  rate: number | null;
}

export function proportion(num: number, den: number): Proportion {
  return { num, den, rate: den === 0 ? null : num / den };
}

/** Counts must be exact non-negative integers; anything else is a caller's data error, not a statistic. */
export function isCount(value: number): boolean {
  return Number.isSafeInteger(value) && value >= 0;
}

export function issue(code: string, message: string, path?: (string | number)[]): StatsIssue {
  return path === undefined ? { code, message } : { code, message, path };
}

/**
 * Checks that every id is a non-empty string and appears once; duplicates would double-count an item in every
 * statistic built on top, so they are refused rather than merged.
 */
export function checkIds(ids: readonly string[], what: string): StatsIssue[] {
  const issues: StatsIssue[] = [];
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (id.length === 0) issues.push(issue("empty-id", `${what} ${index} has an empty id`, [index, "id"]));
    else if (seen.has(id)) issues.push(issue("duplicate-id", `${what} id "${id}" appears more than once`, [index, "id"]));
    seen.add(id);
  });
  return issues;
}
