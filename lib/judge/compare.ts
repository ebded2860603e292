// Judge against judge on the same items: each side's verdict per item (majority over samples, then over a panel's
// members), their raw agreement, Cohen's kappa, confusion matrix and disagreements. Pure; stats from lib/stats.

import { compareJudges, type ConfusionMatrix, type Kappa } from "../stats/agreement";
import type { Proportion } from "../stats/common";
import { panelVerdict } from "./majority";

/** One stored verdict: an item is (response, stage, case); a judge may have several samples of it. */
export interface VerdictRow {
  item: string;
  judge: string;
  verdict: boolean;
}

/** Each item's verdict by the side (one judge or a panel); items a member has not judged are absent. */
export function sideVerdicts(rows: readonly VerdictRow[], members: readonly string[]): Map<string, boolean> {
  const wanted = new Set(members);
  const samples = new Map<string, Map<string, boolean[]>>();
  for (const row of rows) {
    if (!wanted.has(row.judge)) continue;
    const byJudge = samples.get(row.item) ?? new Map<string, boolean[]>();
    byJudge.set(row.judge, [...(byJudge.get(row.judge) ?? []), row.verdict]);
    samples.set(row.item, byJudge);
  }
  const verdicts = new Map<string, boolean>();
  for (const [item, byJudge] of samples) {
    const verdict = panelVerdict(members, byJudge);
    if (verdict !== null) verdicts.set(item, verdict);
  }
  return verdicts;
}

export interface SideComparison {
  /** Items both sides judged. */
  n: number;
  agreement: Proportion;
  kappa: Kappa;
  /** Side A (rows) against side B (columns). */
  confusion: ConfusionMatrix;
  /** Items where the sides differ, in item order, with each side's verdict. */
  disagreements: { item: string; a: boolean; b: boolean }[];
  /** Items only one side judged: outside the comparison, counted so coverage is visible. */
  onlyA: number;
  onlyB: number;
}

export function compareSides(a: ReadonlyMap<string, boolean>, b: ReadonlyMap<string, boolean>): SideComparison {
  const shared = [...a.keys()].filter((item) => b.has(item)).sort();
  const pairs = shared.map((item) => ({ id: item, a: a.get(item)!, b: b.get(item)! }));
  const compared = compareJudges(pairs);
  // Ids come from map keys, so they are unique and non-empty; the comparison cannot fail on them.
  if (!compared.ok) throw new Error(compared.issues.map((issue) => issue.message).join("; "));
  return {
    n: pairs.length,
    agreement: compared.value.agreement,
    kappa: compared.value.kappa,
    confusion: compared.value.confusion,
    disagreements: pairs.filter((pair) => pair.a !== pair.b).map((pair) => ({ item: pair.id, a: pair.a, b: pair.b })),
    onlyA: a.size - shared.length,
    onlyB: b.size - shared.length,
  };
}

export interface PairSummary {
  a: string;
  b: string;
  n: number;
  agreement: Proportion;
  kappa: Kappa;
}

/** Every pair of judges present in the rows, each judge by its sample majority, pairs with shared items only. */
export function pairwiseAgreement(rows: readonly VerdictRow[], judges: readonly string[]): PairSummary[] {
  const verdicts = new Map(judges.map((judge) => [judge, sideVerdicts(rows, [judge])]));
  const pairs: PairSummary[] = [];
  for (let i = 0; i < judges.length; i++) {
    for (let j = i + 1; j < judges.length; j++) {
      const compared = compareSides(verdicts.get(judges[i]!)!, verdicts.get(judges[j]!)!);
      if (compared.n === 0) continue;
      pairs.push({ a: judges[i]!, b: judges[j]!, n: compared.n, agreement: compared.agreement, kappa: compared.kappa });
    }
  }
  return pairs;
}
