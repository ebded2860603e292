// A pairwise comparison's figures: win rate with ties, the swap-inconsistency rate (warning above the guide's 0.10)
// and the length check (share of decided comparisons won by the longer answer, flagged above the threshold).
import { Badge } from "@/components/ui/badge";
import type { PairwiseReport } from "@/lib/grading/pairwise";

const pct = (value: number | null) => (value === null ? "—" : `${(value * 100).toFixed(1)}%`);

export function PairwiseFigures({ report }: { report: PairwiseReport }) {
  return (
    <span className="text-sm" data-testid="pairwise-figures">
      win rate <strong className="tabular-nums">{report.winRate === null ? "—" : report.winRate.toFixed(3)}</strong> ({report.counts.wins} W / {report.counts.losses} L / {report.counts.ties} T
      {report.pending > 0 ? `, ${report.pending} not judged yet` : ""}) · swap-inconsistent <span className="tabular-nums">{report.inconsistent} of {report.judged} ({pct(report.inconsistencyRate)})</span>{" "}
      {report.warning ? <Badge tone="warn">above 10%: position bias</Badge> : null} · longer answer won {report.length.toLonger} of {report.length.decided} decided ({pct(report.length.share)}){" "}
      {report.length.flagged ? <Badge tone="warn">length flag: above {pct(report.length.threshold)}</Badge> : null}
    </span>
  );
}
