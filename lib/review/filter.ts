// Which judge verdicts a review queue draws from: the filter's schema, its test against one candidate, and a
// plain-words description. Pure; a candidate matches only when every condition set in the filter holds.

import { z } from "zod";
import { sampleMajority } from "../judge/majority";

export const STAGES = ["pass", "resolve"] as const;
export type Stage = (typeof STAGES)[number];

export const VERDICT_FILTERS = ["any", "pass", "fail"] as const;
export type VerdictFilter = (typeof VERDICT_FILTERS)[number];

export const RULE_JUDGE = "rule";

const nameList = z.array(z.string().trim().min(1).max(200)).max(500).default([]);

/** What a queue samples from. Empty lists mean "any". */
export const queueFilterSchema = z.object({
  benchmarkId: z.string().min(1).max(100),
  stage: z.enum(STAGES),
  judges: nameList,
  models: nameList,
  domains: nameList,
  verdict: z.enum(VERDICT_FILTERS).default("any"),
  /** Only verdicts that disagree with the rule judge on the same response (pass stage only). */
  disagreeWithRule: z.boolean().default(false),
  /** Only verdicts that differ from this judge's majority verdict on the same item (judge comparison page). */
  disagreeWith: z.string().trim().min(1).max(200).optional(),
});

export type QueueFilter = z.output<typeof queueFilterSchema>;

/** One stored judge verdict a queue could draw, with what the filter looks at. */
export interface QueueCandidate {
  judgeVerdictId: string;
  responseId: string;
  stage: Stage;
  casePosition: number;
  judge: string;
  verdict: boolean;
  model: string;
  runLabel: string;
  domain: string;
  turnKey: string;
  /** Other judges' verdicts on the same response, stage and case. */
  others: readonly { judge: string; verdict: boolean }[];
}

/**
 * Whether the candidate's verdict differs from the rule judge's on the same item. For the rule judge itself: whether
 * any other judge differs from it. False when there is nothing to compare with.
 */
export function disagreesWithRule(candidate: Pick<QueueCandidate, "judge" | "verdict" | "others">): boolean {
  if (candidate.judge === RULE_JUDGE) return candidate.others.some((other) => other.verdict !== candidate.verdict);
  const rule = candidate.others.find((other) => other.judge === RULE_JUDGE);
  return rule !== undefined && rule.verdict !== candidate.verdict;
}

/** Whether the candidate's verdict differs from `judge`'s majority over its samples of the same item; false when that judge has none. */
export function disagreesWith(candidate: Pick<QueueCandidate, "verdict" | "others">, judge: string): boolean {
  const other = sampleMajority(candidate.others.filter((entry) => entry.judge === judge).map((entry) => entry.verdict));
  return other !== null && other !== candidate.verdict;
}

export function matchesFilter(candidate: QueueCandidate, filter: QueueFilter): boolean {
  if (candidate.stage !== filter.stage) return false;
  if (filter.judges.length > 0 && !filter.judges.includes(candidate.judge)) return false;
  if (filter.models.length > 0 && !filter.models.includes(candidate.model)) return false;
  if (filter.domains.length > 0 && !filter.domains.includes(candidate.domain)) return false;
  if (filter.verdict === "pass" && !candidate.verdict) return false;
  if (filter.verdict === "fail" && candidate.verdict) return false;
  if (filter.disagreeWithRule && !disagreesWithRule(candidate)) return false;
  if (filter.disagreeWith !== undefined && !disagreesWith(candidate, filter.disagreeWith)) return false;
  return true;
}

function list(label: string, values: readonly string[]): string | null {
  return values.length === 0 ? null : `${label} ${values.join(", ")}`;
}

/** e.g. "pass stage · judge recorded · models demo_alpha, demo_beta · verdict fail · disagrees with the rule judge". */
export function describeFilter(filter: QueueFilter): string {
  return [
    `${filter.stage} stage`,
    list(filter.judges.length === 1 ? "judge" : "judges", filter.judges),
    list(filter.models.length === 1 ? "model" : "models", filter.models),
    list(filter.domains.length === 1 ? "domain" : "domains", filter.domains),
    filter.verdict === "any" ? null : `verdict ${filter.verdict}`,
    filter.disagreeWithRule ? "disagrees with the rule judge" : null,
    filter.disagreeWith !== undefined ? `disagrees with ${filter.disagreeWith}` : null,
  ]
    .filter((part): part is string => part !== null)
    .join(" · ");
}

/** The filter as query-string pairs for GET /api/review/matching (lists repeat their key). */
export function filterQuery(filter: QueueFilter): [string, string][] {
  return [
    ["benchmarkId", filter.benchmarkId],
    ["stage", filter.stage],
    ...filter.judges.map((judge): [string, string] => ["judge", judge]),
    ...filter.models.map((model): [string, string] => ["model", model]),
    ...filter.domains.map((domain): [string, string] => ["domain", domain]),
    ["verdict", filter.verdict],
    ["disagreeWithRule", String(filter.disagreeWithRule)],
  ];
}
