// Two responses' verdicts side by side (our reproduction of steps 1.1–1.3, the rule judge, our verdict, the recorded
// verdict, the resolve tests), rows where they differ flagged. Server-renderable; rows come from lib/diff-view/verdicts.
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { tableStyles } from "@/components/ui/styles";
import type { VerdictCell, VerdictRow } from "@/lib/diff-view/verdicts";

/** The head of a two-sided check table: the check, each side's label, and a last column (its heading may be sr-only). */
export function SideBySideHead({ before, after, last }: { before: string; after: string; last: ReactNode }) {
  return (
    <thead>
      <tr>
        {["Check", before, after].map((heading, index) => (
          <th key={index} scope="col" className={tableStyles.th}>
            {heading}
          </th>
        ))}
        <th scope="col" className={tableStyles.th}>
          {last}
        </th>
      </tr>
    </thead>
  );
}

function Cell({ cell }: { cell: VerdictCell }) {
  return (
    <td className="px-3 py-2 align-top">
      <Badge tone={cell.tone}>{cell.text}</Badge>
      {cell.detail ? <span className="mt-0.5 block text-xs text-slate-600 dark:text-slate-400">{cell.detail}</span> : null}
    </td>
  );
}

export function VerdictTable({ rows, labels, caption }: { rows: readonly VerdictRow[]; labels: { a: string; b: string }; caption: string }) {
  return (
    <div className={tableStyles.wrapper}>
      <table className={tableStyles.table} data-testid="verdict-table">
        <caption className="sr-only">{caption}</caption>
        <SideBySideHead before={labels.a} after={labels.b} last={<span className="sr-only">Same or different</span>} />
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row) => (
            <tr key={row.id} data-testid="verdict-row" data-row={row.id} data-differs={row.differs ? "true" : "false"} className={row.differs ? "bg-amber-50/60 dark:bg-amber-950/20" : ""}>
              <th scope="row" className="px-3 py-2 text-left align-top text-sm font-medium">
                {row.label}
              </th>
              <Cell cell={row.a} />
              <Cell cell={row.b} />
              <td className="px-3 py-2 align-top text-xs text-slate-600 dark:text-slate-400">{row.differs ? "differs" : "same"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
