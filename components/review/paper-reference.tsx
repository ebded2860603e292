// The paper's published judge–human agreement, shown beside ours for reference.
import { formatPercent } from "@/lib/format";
import { PAPER_AGREEMENT } from "@/lib/review/agreement-view";

export function PaperReference({ stage }: { stage?: "pass" | "resolve" | string }) {
  const stages = (stage === "pass" || stage === "resolve" ? [stage] : ["pass", "resolve"]) as ("pass" | "resolve")[];
  return (
    <aside aria-label="Published agreement" className="rounded-xl border border-sky-200 bg-sky-50 p-3 text-sm dark:border-sky-900 dark:bg-sky-950/40" data-testid="paper-reference">
      <p className="font-medium">Published for reference (Chat2Workflow paper)</p>
      <ul className="mt-1 space-y-0.5">
        {stages.map((entry) => (
          <li key={entry}>
            {entry === "pass" ? "Pass" : "Resolve"} stage: <strong>{formatPercent(PAPER_AGREEMENT[entry].rate)}</strong> strict-unanimity agreement of the {PAPER_AGREEMENT.judge} judge with three
            volunteers over {PAPER_AGREEMENT[entry].instances} instances ({PAPER_AGREEMENT.crossCheck.judge}: {formatPercent(PAPER_AGREEMENT.crossCheck[entry])}).
          </li>
        ))}
      </ul>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        The paper counts a case when all three volunteers confirmed the judge strictly followed its prompt; compare with both the verdict and the rules columns.
      </p>
    </aside>
  );
}
