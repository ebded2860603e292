// Agreement of each judge with human labels from review queues (the calibration set), overall and per week of the
// label, so drift shows. Pure; a human label is the annotators' majority of votes cast blind (before the judge's
// verdict was shown: a vote cast with it visible leans towards it), and tied items carry no label.

import { compareJudges, type Kappa } from "../stats/agreement";
import { wilsonInterval, type Interval } from "../stats/intervals";

export interface HumanVote {
  annotator: string;
  /** The annotator's own verdict (true = pass). */
  pass: boolean;
  at: Date;
  /** Whether the judge's verdict was visible when the vote was last set (reveal queues, or changed after the reveal). */
  judgeVisible: boolean;
}

/** One reviewed item (response, stage, case) with every vote on it and each judge's verdict on the same item. */
export interface CalibrationItem {
  id: string;
  votes: readonly HumanVote[];
  /**
   * Judge to its (sample-majority) verdict on the item; judges that did not judge it are absent. The key is the label,
   * or `judgeVersionKey(label, prompt)` to keep a judge's prompt versions apart.
   */
  judges: ReadonlyMap<string, boolean>;
}

export interface HumanLabel {
  pass: boolean;
  /** When the label took its value: the latest vote counted. */
  at: Date;
}

/**
 * The annotators' majority, each annotator counted once with their latest vote (an item reviewed in two queues by
 * the same person is one opinion). Null on a tie or without votes.
 */
export function humanLabel(votes: readonly HumanVote[]): HumanLabel | null {
  const latest = new Map<string, HumanVote>();
  for (const vote of votes) {
    const seen = latest.get(vote.annotator);
    if (!seen || seen.at.getTime() < vote.at.getTime()) latest.set(vote.annotator, vote);
  }
  if (latest.size === 0) return null;
  let passes = 0;
  let at = 0;
  for (const vote of latest.values()) {
    if (vote.pass) passes += 1;
    at = Math.max(at, vote.at.getTime());
  }
  const fails = latest.size - passes;
  if (passes === fails) return null;
  return { pass: passes > fails, at: new Date(at) };
}

/** Monday (UTC) of the date's ISO week, as YYYY-MM-DD. */
export function weekOf(date: Date): string {
  const day = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const sinceMonday = (day.getUTCDay() + 6) % 7;
  day.setUTCDate(day.getUTCDate() - sinceMonday);
  return day.toISOString().slice(0, 10);
}

export interface AgreementFigure {
  /** Items with both a human label and this judge's verdict. */
  n: number;
  agree: number;
  /** agree / n; null when n = 0. */
  rate: number | null;
  /** 95% Wilson interval of the rate; null when n = 0. */
  interval: Interval | null;
  kappa: Kappa;
}

const VERSION_SEPARATOR = "\u0000";

/** A calibration key for one prompt version of a judge (a judge's verdicts under two prompts drift apart). */
export function judgeVersionKey(judge: string, promptVersion: string | null): string {
  return promptVersion === null ? judge : `${judge}${VERSION_SEPARATOR}${promptVersion}`;
}

export interface JudgeCalibration {
  judge: string;
  /** The prompt version (fingerprint) the verdicts were made with; null for judges without one (recorded, rule). */
  promptVersion: string | null;
  overall: AgreementFigure;
  /** Per week of the human label, oldest first; weeks without items for this judge are left out. */
  weeks: ({ week: string } & AgreementFigure)[];
}

function figure(pairs: { id: string; a: boolean; b: boolean }[]): AgreementFigure {
  const compared = compareJudges(pairs);
  // Ids are unique by construction (one pair per item), so comparison cannot fail.
  if (!compared.ok) throw new Error(compared.issues.map((issue) => issue.message).join("; "));
  const agree = compared.value.confusion.passPass.length + compared.value.confusion.failFail.length;
  const interval = wilsonInterval(agree, pairs.length);
  return { n: pairs.length, agree, rate: pairs.length ? agree / pairs.length : null, interval: interval.ok ? interval.value : null, kappa: compared.value.kappa };
}

export interface Calibration {
  judges: JudgeCalibration[];
  /** Items with a human label, and those without one because the annotators tied. */
  labelled: number;
  tied: number;
  /** Votes the labels rest on (cast blind), and votes left out because the judge's verdict was visible. */
  blindVotes: number;
  visibleVotes: number;
}

/** Every judge's agreement with the human labels (blind votes only), judges in name order. */
export function calibrate(items: readonly CalibrationItem[]): Calibration {
  const pairsByJudge = new Map<string, { id: string; a: boolean; b: boolean; week: string }[]>();
  let labelled = 0;
  let tied = 0;
  let blindVotes = 0;
  let visibleVotes = 0;
  for (const item of items) {
    const blind = item.votes.filter((vote) => !vote.judgeVisible);
    blindVotes += blind.length;
    visibleVotes += item.votes.length - blind.length;
    const label = humanLabel(blind);
    if (!label) {
      if (blind.length > 0) tied += 1;
      continue;
    }
    labelled += 1;
    const week = weekOf(label.at);
    for (const [judge, verdict] of item.judges) {
      const list = pairsByJudge.get(judge) ?? [];
      list.push({ id: item.id, a: verdict, b: label.pass, week });
      pairsByJudge.set(judge, list);
    }
  }
  const judges = [...pairsByJudge.keys()].sort().map((key) => {
    const pairs = pairsByJudge.get(key)!;
    const weeks = [...new Set(pairs.map((pair) => pair.week))].sort();
    const [judge, promptVersion] = key.split(VERSION_SEPARATOR) as [string, string | undefined];
    return {
      judge,
      promptVersion: promptVersion ?? null,
      overall: figure(pairs),
      weeks: weeks.map((week) => ({ week, ...figure(pairs.filter((pair) => pair.week === week)) })),
    };
  });
  return { judges, labelled, tied, blindVotes, visibleVotes };
}

/** Chart data: one point per week (x = week), one series per judge (its agreement rate that week, null without items). */
export function calibrationChart(calibration: Calibration): { points: Record<string, string | number | null>[]; series: { name: string; displayName: string; key: string }[] } {
  const series = calibration.judges.map((judge, index) => ({ name: judgeVersionKey(judge.judge, judge.promptVersion), displayName: judgeVersionLabel(judge), key: `j${index}` }));
  const weeks = [...new Set(calibration.judges.flatMap((judge) => judge.weeks.map((week) => week.week)))].sort();
  const points = weeks.map((week) => {
    const point: Record<string, string | number | null> = { label: week };
    calibration.judges.forEach((judge, index) => {
      point[`j${index}`] = judge.weeks.find((entry) => entry.week === week)?.rate ?? null;
    });
    return point;
  });
  return { points, series };
}

/** "gpt-x · prompt 1a2b3c4d", or the label alone for judges without a prompt version. */
export function judgeVersionLabel(judge: Pick<JudgeCalibration, "judge" | "promptVersion">): string {
  if (judge.promptVersion === null) return judge.judge;
  // Fingerprints are sha256 hex: eight characters tell versions apart; other version names are shown whole.
  return `${judge.judge} · prompt ${/^[0-9a-f]{16,}$/.test(judge.promptVersion) ? judge.promptVersion.slice(0, 8) : judge.promptVersion}`;
}

// -- drift ------------------------------------------------------------------------------------------------------------

/** A latest week on fewer labelled items than this says too little to raise an alert. */
export const MIN_ITEMS_FOR_DRIFT = 5;

export interface DriftCheck {
  judge: string;
  promptVersion: string | null;
  latest: { week: string } & AgreementFigure;
  /** The weeks before the latest one, pooled, with their 95% interval. */
  baseline: { weeks: string[]; n: number; agree: number; interval: Interval };
  /** True when the latest week's agreement lies below the baseline interval's lower bound. */
  alert: boolean;
  explanation: string;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

/**
 * §8.6 drift: for each judge and prompt version with a baseline (earlier weeks) and a latest week of at least
 * MIN_ITEMS_FOR_DRIFT labelled items, whether the latest week's agreement fell below the baseline weeks' 95% interval.
 */
export function driftChecks(calibration: Calibration, minItems = MIN_ITEMS_FOR_DRIFT): DriftCheck[] {
  const checks: DriftCheck[] = [];
  for (const judge of calibration.judges) {
    if (judge.weeks.length < 2) continue;
    const latest = judge.weeks.at(-1)!;
    if (latest.n < minItems || latest.rate === null) continue;
    const earlier = judge.weeks.slice(0, -1);
    const n = earlier.reduce((sum, week) => sum + week.n, 0);
    const agree = earlier.reduce((sum, week) => sum + week.agree, 0);
    const interval = wilsonInterval(agree, n);
    if (!interval.ok || interval.value === null) continue;
    const alert = latest.rate < interval.value.lower;
    checks.push({
      judge: judge.judge,
      promptVersion: judge.promptVersion,
      latest,
      baseline: { weeks: earlier.map((week) => week.week), n, agree, interval: interval.value },
      alert,
      explanation: `${judgeVersionLabel(judge)}: week of ${latest.week} agreed on ${percent(latest.rate)} (${latest.agree} of ${latest.n}) ${alert ? "below" : "within or above"} the 95% interval ${percent(interval.value.lower)}–${percent(interval.value.upper)} of the ${earlier.length} earlier week${earlier.length === 1 ? "" : "s"} (${agree} of ${n})`,
    });
  }
  return checks;
}
