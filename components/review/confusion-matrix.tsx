// A 2×2 confusion matrix whose cells list their items, each a link when `hrefFor` gives one.
import Link from "next/link";
import type { ConfusionView } from "@/lib/review/agreement-view";
import { linkClass } from "./styles";

const MAX_LISTED = 40;

export function ConfusionMatrix({ view, hrefFor, caption }: { view: ConfusionView; hrefFor?: (id: string) => string; caption: string }) {
  const cell = (row: "pass" | "fail", column: "pass" | "fail") => view.cells.find((entry) => entry.row === row && entry.column === column)!;
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full border-collapse text-sm" data-testid="confusion-matrix">
        <caption className="mb-2 text-left text-xs text-slate-500">{caption}</caption>
        <thead>
          <tr>
            <th scope="col" className="p-2 text-left text-xs font-normal text-slate-500">
              {view.rowLabel} ↓ · {view.columnLabel} →
            </th>
            <th scope="col" className="p-2 text-left">pass</th>
            <th scope="col" className="p-2 text-left">fail</th>
          </tr>
        </thead>
        <tbody>
          {(["pass", "fail"] as const).map((row) => (
            <tr key={row}>
              <th scope="row" className="p-2 text-left align-top">
                {row}
              </th>
              {(["pass", "fail"] as const).map((column) => {
                const entry = cell(row, column);
                const agree = row === column;
                return (
                  <td
                    key={column}
                    data-testid={`cell-${row}-${column}`}
                    className={`min-w-48 border p-2 align-top ${agree ? "border-emerald-200 bg-emerald-50/60 dark:border-emerald-900 dark:bg-emerald-950/40" : "border-red-200 bg-red-50/60 dark:border-red-900 dark:bg-red-950/40"}`}
                  >
                    <span className="text-lg font-semibold tabular-nums">{entry.items.length}</span>
                    {entry.items.length ? (
                      <details className="mt-1">
                        <summary className="cursor-pointer text-xs text-slate-600 dark:text-slate-400">items</summary>
                        <ul className="mt-1 space-y-0.5 text-xs">
                          {entry.items.slice(0, MAX_LISTED).map((item) => (
                            <li key={item.id}>
                              {hrefFor ? (
                                <Link href={hrefFor(item.id)} className={linkClass}>
                                  {item.label}
                                </Link>
                              ) : (
                                item.label
                              )}
                            </li>
                          ))}
                          {entry.items.length > MAX_LISTED ? <li className="text-slate-500">and {entry.items.length - MAX_LISTED} more</li> : null}
                        </ul>
                      </details>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
