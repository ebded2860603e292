// Which judge the leaderboard, charts and drill-downs take their step 1_4 and resolve verdicts from, as the `judge`
// URL parameter: the recorded verdicts (default), one judge label, or a panel. Parsing never throws; bad input is data.

import { err, ok, type Result } from "../result";

export const RECORDED = "recorded";
export const RULE = "rule";
export const PANEL_PREFIX = "panel:";
/** A panel's members are compared one by one in SQL; a bound keeps the query small. */
export const MAX_PANEL_SIZE = 9;
const MAX_LABEL_LENGTH = 200;

/**
 * "recorded": each run's own judge, as stored with the run (the recorded verdicts of recorded runs, an evaluation's
 * judge for generated runs, the rule judge for raw output). "judges": every turn re-decided from JudgeVerdict rows of these labels
 * (one label, or a panel decided by majority).
 */
export type JudgeChoice = { kind: "recorded"; param: "" } | { kind: "judges"; members: string[]; param: string };

export const RECORDED_CHOICE: JudgeChoice = { kind: "recorded", param: "" };

function validLabel(label: string): boolean {
  // Labels are shown and put in URLs; control characters and commas (the panel separator) are refused.
  return label.length > 0 && label.length <= MAX_LABEL_LENGTH && !/[\u0000-\u001f,]/.test(label);
}

/** Reads `?judge=`: absent, empty or "recorded" is the default; "panel:a,b,c" is a panel (order and repeats ignored). */
export function parseJudgeChoice(raw: string | null | undefined): Result<JudgeChoice, string> {
  const text = (raw ?? "").trim();
  if (text === "" || text === RECORDED) return ok(RECORDED_CHOICE);
  if (text.startsWith(PANEL_PREFIX)) {
    const members = [...new Set(text.slice(PANEL_PREFIX.length).split(",").map((part) => part.trim()).filter((part) => part.length > 0))].sort();
    if (members.length === 0) return err("a panel needs at least one judge, e.g. panel:a,b,c");
    if (members.length > MAX_PANEL_SIZE) return err(`a panel has at most ${MAX_PANEL_SIZE} judges`);
    const bad = members.find((member) => !validLabel(member));
    if (bad !== undefined) return err(`"${bad.slice(0, 40)}" is not a judge label`);
    // A panel of one is that judge.
    if (members.length === 1) return members[0] === RECORDED ? ok(RECORDED_CHOICE) : ok({ kind: "judges", members, param: members[0]! });
    return ok({ kind: "judges", members, param: `${PANEL_PREFIX}${members.join(",")}` });
  }
  if (!validLabel(text)) return err(`"${text.slice(0, 40)}" is not a judge label`);
  return ok({ kind: "judges", members: [text], param: text });
}

/** The choice for a page: an invalid parameter falls back to the default, with the reason to show. */
export function judgeChoiceOrDefault(raw: string | null | undefined): { choice: JudgeChoice; problem: string | null } {
  const parsed = parseJudgeChoice(raw);
  return parsed.ok ? { choice: parsed.value, problem: null } : { choice: RECORDED_CHOICE, problem: parsed.issues.join("; ") };
}

export function describeJudgeChoice(choice: JudgeChoice): string {
  if (choice.kind === "recorded") return "each run's own judge (its recorded verdicts, its evaluation's judge, or the rule judge), as every row says";
  if (choice.members.length === 1) return choice.members[0] === RULE ? "the rule judge" : `judge ${choice.members[0]}`;
  return `the panel ${choice.members.join(", ")} (majority)`;
}

/** Appends `judge=` to a query string ("" or "?a=b") unless the choice is the default. */
export function withJudge(query: string, choice: JudgeChoice): string {
  if (choice.kind === "recorded") return query;
  const pair = `judge=${encodeURIComponent(choice.param)}`;
  return query ? `${query}&${pair}` : `?${pair}`;
}

/** Adds `judge=` to a path that may already carry a query. */
export function hrefWithJudge(href: string, choice: JudgeChoice): string {
  if (choice.kind === "recorded") return href;
  return `${href}${href.includes("?") ? "&" : "?"}judge=${encodeURIComponent(choice.param)}`;
}

/** One entry of the "Judged by" chooser. */
export interface JudgeOption {
  /** The `judge` URL parameter ("" for the recorded verdicts). */
  value: string;
  label: string;
}

/**
 * The chooser's entries: the recorded verdicts first, then every judge that has judged the pass stage (the rule
 * judge named as such), with the current choice kept when it is a panel or a judge not listed.
 */
export function judgeOptions(passJudges: readonly { judge: string; model: string | null; samples: number }[], current: JudgeChoice): JudgeOption[] {
  const options: JudgeOption[] = [{ value: "", label: "Each run's own judge (default)" }];
  for (const entry of [...passJudges].sort((a, b) => (a.judge === RULE ? -1 : b.judge === RULE ? 1 : a.judge.localeCompare(b.judge)))) {
    if (entry.judge === RECORDED) continue;
    const details = [entry.model && entry.model !== entry.judge ? entry.model : null, entry.samples > 1 ? `majority of ${entry.samples} samples` : null].filter(Boolean).join(", ");
    options.push({ value: entry.judge, label: entry.judge === RULE ? "Rule judge (deterministic)" : `${entry.judge}${details ? ` (${details})` : ""}` });
  }
  if (current.kind === "judges" && !options.some((option) => option.value === current.param)) options.push({ value: current.param, label: describeJudgeChoice(current) });
  return options;
}
