// Verdict badges shared by the drill-down pages: always a symbol and words, so colour is never the only signal.
import type { CaseState, Tone } from "@/lib/leaderboard/turns";

export const TONE_CLASSES: Record<Tone, string> = {
  good: "bg-emerald-100 text-emerald-900 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800",
  partial: "bg-amber-100 text-amber-900 ring-amber-300 dark:bg-amber-950 dark:text-amber-200 dark:ring-amber-800",
  "pass-only": "bg-sky-100 text-sky-900 ring-sky-300 dark:bg-sky-950 dark:text-sky-200 dark:ring-sky-800",
  bad: "bg-red-100 text-red-900 ring-red-300 dark:bg-red-950 dark:text-red-200 dark:ring-red-800",
  missing: "bg-slate-50 text-slate-600 ring-slate-200 dark:bg-slate-900 dark:text-slate-400 dark:ring-slate-700",
};

export const TONE_LEGEND: { tone: Tone; text: string; label: string }[] = [
  { tone: "good", text: "✓ 3/3", label: "passed, every test case resolved (or no resolve data)" },
  { tone: "partial", text: "✓ 1/3", label: "passed, some test cases resolved" },
  { tone: "pass-only", text: "✓ 0/3", label: "passed, no test case resolved" },
  { tone: "bad", text: "✗ step", label: "failed the pass stage at the step shown" },
  { tone: "missing", text: "—", label: "no response" },
];

export function PassVerdict({ valid, failStep }: { valid: boolean; failStep: string | null }) {
  return (
    <span className={`inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium ring-1 ${TONE_CLASSES[valid ? "good" : "bad"]}`}>
      {valid ? "✓ pass" : `✗ ${failStep ?? "fail"}`}
    </span>
  );
}

const CASE_TEXT: Record<CaseState, { symbol: string; label: string; tone: Tone }> = {
  pass: { symbol: "✓", label: "resolved", tone: "good" },
  fail: { symbol: "✗", label: "not resolved", tone: "bad" },
  "not-run": { symbol: "–", label: "not run (failed the pass stage; counts as not resolved)", tone: "missing" },
  "not-judged": { symbol: "…", label: "not judged (text outputs no LLM judge has answered; counts neither way)", tone: "partial" },
  unknown: { symbol: "?", label: "no resolve data", tone: "missing" },
};

export function CaseChips({ cases }: { cases: CaseState[] }) {
  return (
    <span className="inline-flex gap-1">
      {cases.map((state, index) => {
        const text = CASE_TEXT[state];
        return (
          <span key={index} title={`Test ${index + 1}: ${text.label}`} className={`inline-flex w-12 justify-center rounded px-1 py-0.5 text-xs ring-1 ${TONE_CLASSES[text.tone]}`}>
            <span aria-hidden="true">
              T{index + 1} {text.symbol}
            </span>
            <span className="sr-only">
              Test {index + 1} {text.label}
            </span>
          </span>
        );
      })}
    </span>
  );
}
