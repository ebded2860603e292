// A run's pass and resolve figures with the judge that made them: the same figures, in the same words, on the run
// page and the evaluation page (and pooled on the leaderboard). Renders on the server and in client components.
import { formatRatio } from "@/lib/format";
import { judgeNote } from "@/lib/judge/run-judge";
import type { RunFigures as Figures } from "@/lib/server/data/runs";

export function RunFigures({ figures, className = "" }: { figures: Figures; className?: string }) {
  return (
    <dl className={`flex flex-wrap gap-x-6 gap-y-1 text-sm ${className}`} data-testid="run-figures" data-run={figures.runId}>
      <div>
        <dt className="inline text-slate-500">Pass rate </dt>
        <dd className="inline font-semibold tabular-nums" data-testid="run-pass-figure">
          {formatRatio(figures.passed, figures.turns)} ({figures.passed} of {figures.turns})
        </dd>
      </div>
      <div>
        <dt className="inline text-slate-500">Resolve rate </dt>
        <dd className="inline font-semibold tabular-nums" data-testid="run-resolve-figure">
          {figures.casesPassed === null || figures.cases === null ? (
            "— (not executed on Dify)"
          ) : figures.casesNotJudged > 0 ? (
            <span title={`${figures.casesNotJudged} test cases have text outputs no LLM judge has answered: no resolve rate until they are judged`} data-testid="run-resolve-not-judged">
              not judged ({figures.casesNotJudged})
            </span>
          ) : (
            `${formatRatio(figures.casesPassed, figures.cases)} (${figures.casesPassed} of ${figures.cases})`
          )}
        </dd>
      </div>
      <div>
        <dt className="inline text-slate-500">Judged by </dt>
        <dd className="inline" data-testid="run-judge">
          {judgeNote(figures.judge, figures.awaitingJudge)}
        </dd>
      </div>
    </dl>
  );
}
