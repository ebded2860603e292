// Says whose verdicts the figures use and which runs the chosen judge has not (fully) judged: those runs are left
// out of the figures, never counted as zero.
import Link from "next/link";
import type { RunJudging } from "@/lib/server/data/judged-by";

export function JudgingNotice({ description, judging, problem, judgesHref }: { description: string; judging: readonly RunJudging[] | null; problem: string | null; judgesHref: string }) {
  const notJudged = (judging ?? []).filter((run) => run.pass !== "judged");
  const resolveMissing = (judging ?? []).filter((run) => run.pass === "judged" && run.resolve !== null && run.resolve !== "judged");
  return (
    <div className="mb-4 space-y-2 text-sm" data-testid="judging-notice">
      {problem ? (
        <p role="alert" className="text-red-700 dark:text-red-400">
          Ignored the judge in the link ({problem}); showing each run&apos;s own judge.
        </p>
      ) : null}
      <p className="text-slate-600 dark:text-slate-400">
        Step 1_4 and resolve verdicts from <strong>{description}</strong>. <Link href={judgesHref} className="underline">Judges and their agreement</Link>
      </p>
      {notJudged.length ? (
        <div className="rounded border border-amber-300 bg-amber-50 p-3 dark:border-amber-800 dark:bg-amber-950/40" data-testid="not-judged">
          <p className="font-medium">
            Not judged: {notJudged.length} run{notJudged.length === 1 ? "" : "s"} left out of these figures (not counted as zero)
          </p>
          <ul className="mt-1 list-disc pl-5">
            {notJudged.map((run) => (
              <li key={run.runId}>
                <Link href={`/runs/${run.runId}`} className="underline">
                  {run.model} · {run.label}
                </Link>{" "}
                — {run.pass === "partial" ? `partly judged: ${run.passJudged} of ${run.reach} turns reaching step 1_4` : "not judged"}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {resolveMissing.length ? (
        <p className="text-slate-600 dark:text-slate-400" data-testid="resolve-not-judged">
          Resolve not judged for {resolveMissing.map((run) => `${run.model} · ${run.label}${run.resolve === "partial" ? ` (${run.casesMissing} cases missing)` : ""}`).join(", ")}: their resolve figures show “—”.
        </p>
      ) : null}
    </div>
  );
}
