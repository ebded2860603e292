// Agreement of each judge with human labels from review queues (the calibration set), overall and per week of the
// label, so drift shows. Pure; a human label is the annotators' majority of votes cast blind (before the judge's
// verdict was shown: a vote cast with it visible leans towards it), and tied items carry no label.

import { compareJudges, type Kappa } from "../stats/agreement";

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
  /** Judge label to its (sample-majority) verdict on the item; judges that did not judge it are absent. */
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
  kappa: Kappa;
}

export interface JudgeCalibration {
  judge: string;
  overall: AgreementFigure;
  /** Per week of the human label, oldest first; weeks without items for this judge are left out. */
  weeks: ({ week: string } & AgreementFigure)[];
}

function figure(pairs: { id: string; a: boolean; b: boolean }[]): AgreementFigure {
  const compared = compareJudges(pairs);
  // Ids are unique by construction (one pair per item), so comparison cannot fail.
  if (!compared.ok) throw new Error(compared.issues.map((issue) => issue.message).join("; "));
  const agree = compared.value.confusion.passPass.length + compared.value.confusion.failFail.length;
  return { n: pairs.length, agree, rate: pairs.length ? agree / pairs.length : null, kappa: compared.value.kappa };
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
  const judges = [...pairsByJudge.keys()].sort().map((judge) => {
    const pairs = pairsByJudge.get(judge)!;
    const weeks = [...new Set(pairs.map((pair) => pair.week))].sort();
    return {
      judge,
      overall: figure(pairs),
      weeks: weeks.map((week) => ({ week, ...figure(pairs.filter((pair) => pair.week === week)) })),
    };
  });
  return { judges, labelled, tied, blindVotes, visibleVotes };
}

/** Chart data: one point per week (x = week), one series per judge (its agreement rate that week, null without items). */
export function calibrationChart(calibration: Calibration): { points: Record<string, string | number | null>[]; series: { name: string; displayName: string; key: string }[] } {
  const series = calibration.judges.map((judge, index) => ({ name: judge.judge, displayName: judge.judge, key: `j${index}` }));
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
