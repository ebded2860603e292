// The "Judged by" chooser with what the choice means for the page: whose verdicts, and the runs left out.
import { hrefWithJudge } from "@/lib/judge/choice";
import type { JudgedBy } from "@/lib/server/data/judges";
import type { RunJudging } from "@/lib/server/data/judged-by";
import { JudgeSelect } from "./judge-select";
import { JudgingNotice } from "./judging-notice";

export function JudgedByBar({ judgedBy, judging, benchmarkQuery }: { judgedBy: JudgedBy; judging: readonly RunJudging[] | null; benchmarkQuery: string }) {
  return (
    <div className="mb-2 space-y-2">
      <JudgeSelect options={judgedBy.options} value={judgedBy.choice.param} />
      <JudgingNotice description={judgedBy.description} judging={judging} problem={judgedBy.problem} judgesHref={hrefWithJudge(`/judges${benchmarkQuery}`, judgedBy.choice)} />
    </div>
  );
}
