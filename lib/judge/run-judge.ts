// A run's own judge: whose verdicts make the run's figures on every page, export and download. Recorded runs keep
// the verdicts their file recorded; a generated run has its evaluation's judge; anything else is the rule judge.

import { MAX_JUDGE_SAMPLES } from "./majority";

/**
 * "recorded": the run file's own verdicts (the official pipeline's LLM judge). "rule": steps 1_1–1_3 as this app
 * reproduces them and the deterministic rule judge for step 1_4. "llm": a judge or panel (labels as its verdicts are
 * stored under), each asked `samples` times; see panelVerdict.
 */
export type RunJudge = { kind: "recorded" } | { kind: "rule" } | { kind: "llm"; members: string[]; samples: number };

/** What a figure made by the rule judge says, wherever it appears. */
export const RULE_JUDGE_LABEL = "rule judge (not the official LLM judge)";

/** Runs whose file carries verdicts; every other origin is scored by this app. */
export const RECORDED_ORIGIN = "recorded";

/** The judge a run without a stored one has: its recorded verdicts, or the rule judge. */
export function defaultRunJudge(origin: string): RunJudge {
  return origin === RECORDED_ORIGIN ? { kind: "recorded" } : { kind: "rule" };
}

/** Run.judge as stored (JSON), falling back to the origin's judge when absent or malformed. */
export function parseRunJudge(stored: string | null | undefined, origin: string): RunJudge {
  if (!stored) return defaultRunJudge(origin);
  try {
    const value = JSON.parse(stored) as { kind?: unknown; members?: unknown; samples?: unknown };
    if (value.kind === "recorded" || value.kind === "rule") return { kind: value.kind };
    if (value.kind === "llm" && Array.isArray(value.members) && value.members.length > 0 && value.members.every((member) => typeof member === "string" && member.length > 0)) {
      const samples = typeof value.samples === "number" && Number.isInteger(value.samples) && value.samples >= 1 ? Math.min(value.samples, MAX_JUDGE_SAMPLES) : 1;
      return { kind: "llm", members: [...new Set(value.members as string[])].sort(), samples };
    }
  } catch {
    // A malformed value says nothing about the judge: fall back below.
  }
  return defaultRunJudge(origin);
}

export function runJudgeJson(judge: RunJudge): string {
  return JSON.stringify(judge.kind === "llm" ? { kind: "llm", members: [...judge.members].sort(), samples: judge.samples } : { kind: judge.kind });
}

/** "recorded verdicts", "rule judge (not the official LLM judge)", "judge: gpt-5.1 ×1", "panel: a, b, c ×3". */
export function describeRunJudge(judge: RunJudge): string {
  if (judge.kind === "recorded") return "recorded verdicts";
  if (judge.kind === "rule") return RULE_JUDGE_LABEL;
  return `${judge.members.length === 1 ? "judge" : "panel"}: ${judge.members.join(", ")} ×${judge.samples}`;
}

/** What a figure says about its judge: "judge: gpt-5.1 ×1", plus the turns it has not decided yet when there are any. */
export function judgeNote(judge: string, awaiting: number): string {
  return awaiting > 0 ? `${judge} · ${awaiting} turn${awaiting === 1 ? "" : "s"} awaiting its verdict (rule judge until then)` : judge;
}
