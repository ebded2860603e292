// A leaderboard row's stability across its runs: how many turns pass in k of n runs, pass@n and pass^n for the pass
// and resolve stages with their 95% Wilson intervals (as the leaderboard computes them), and the turns that flip.
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { cardStyles } from "@/components/ui/styles";
import { modelDiffHref } from "@/lib/diff/links";
import type { RowStability } from "@/lib/server/data/stability";
import type { StabilityFigure, StabilityScope } from "@/lib/stats/stability";

const percent = (value: number) => `${(100 * value).toFixed(1)}%`;

export function StabilityFigureText({ figure }: { figure: StabilityFigure | null }) {
  if (!figure) return <span className="text-slate-600 dark:text-slate-400">—</span>;
  const interval = figure.interval;
  return (
    <span title={`${figure.k} of ${figure.n}${interval ? `; 95% Wilson interval ${percent(interval.lower)}–${percent(interval.upper)}` : ""}`}>
      {interval ? percent(interval.estimate) : "—"} <span className="text-xs text-slate-600 dark:text-slate-400">({figure.k}/{figure.n}{interval ? `, ${percent(interval.lower)}–${percent(interval.upper)}` : ""})</span>
    </span>
  );
}

/** A scope's pass@n, pass^n, resolve@n and resolve^n, as table cells. */
export function stabilityCells(scope: Pick<StabilityScope, "passAtN" | "passAllN" | "resolveAtN" | "resolveAllN">) {
  return [scope.passAtN, scope.passAllN, scope.resolveAtN, scope.resolveAllN].map((figure, index) => <StabilityFigureText key={index} figure={figure} />);
}

export function StabilitySection({ stability }: { stability: RowStability }) {
  const n = stability.runIds.length;
  const scopes = [stability.overall, ...stability.domains];
  return (
    <section aria-labelledby="stability-title" className={`${cardStyles} mb-6 space-y-4`} data-testid="stability">
      <div>
        <h2 id="stability-title" className="text-lg font-semibold">
          Stability across its {n} runs
        </h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">
          pass@{n}: a turn passes in at least one run; pass^{n}: in every run (resolve: the same per test case). Each run&apos;s own judge decides, as on every page.
          {stability.incomplete > 0 ? ` ${stability.incomplete} turns some run did not answer are left out.` : ""}
        </p>
      </div>
      <p className="text-sm" data-testid="stability-histogram">
        {stability.histogram.map((count, k) => `${count} turn${count === 1 ? "" : "s"} pass in ${k} of ${n}`).join(" · ")}
      </p>
      <DataTable
        caption={`pass@${n} and pass^${n} per domain and overall`}
        headers={["Scope", `pass@${n}`, `pass^${n}`, `resolve@${n}`, `resolve^${n}`]}
        rowHeader
        columnClasses={{ 0: "text-left font-medium" }}
        rowTestId="stability-row"
        rows={scopes.map((scope) => ({
          key: scope.scope,
          data: { scope: scope.scope },
          cells: [
            scope.scope === "overall" ? `All ${scope.turns} turns` : `${scope.scope} (${scope.turns})`,
            ...stabilityCells(scope),
          ],
        }))}
      />
      <details>
        <summary className="cursor-pointer text-sm font-medium">Turns that flip between runs ({stability.flipping.length})</summary>
        <ul className="mt-2 grid gap-1 text-sm sm:grid-cols-2" data-testid="stability-flipping">
          {stability.flipping.map((turn) => (
            <li key={turn.turnKey}>
              <Link href={modelDiffHref({ turn: turn.turnKey, a: turn.failingRuns[0]!, b: turn.passingRuns[0]! })} className="text-brand-700 underline underline-offset-2 dark:text-brand-300">
                {turn.task} round {turn.round}
              </Link>{" "}
              <span className="text-slate-600 dark:text-slate-400">
                passes in {turn.passes} of {n} ({turn.passingRuns.map((id) => stability.runLabels[id] ?? id).join(", ")})
              </span>
            </li>
          ))}
        </ul>
      </details>
    </section>
  );
}
