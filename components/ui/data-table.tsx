import type { ReactNode } from "react";
import { tableStyles } from "./styles";

/** A row with a stable key and the data-* attributes tests and links read (`data: { label: "x" }` is data-label="x"). */
export interface DataTableRow {
  key: string;
  cells: ReactNode[];
  data?: Record<string, string>;
}

/**
 * A plain table for the figures behind a chart or a list: a caption (for screen readers unless shown), column
 * headers, and rows of cells. Numeric columns are right-aligned; `columnClasses` adds classes to a column's cells.
 */
export function DataTable({
  caption,
  headers,
  rows,
  numeric = [],
  columnClasses = [],
  testId,
  rowTestId,
  empty,
}: {
  caption: string;
  headers: ReactNode[];
  rows: (ReactNode[] | DataTableRow)[];
  numeric?: number[];
  columnClasses?: (string | undefined)[];
  testId?: string;
  rowTestId?: string;
  /** Shown in place of the table when there are no rows. */
  empty?: ReactNode;
}) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const cellClass = (index: number) => [numeric.includes(index) ? tableStyles.tdNumber : tableStyles.td, columnClasses[index]].filter(Boolean).join(" ");
  return (
    <div className={tableStyles.wrapper}>
      <table className={tableStyles.table} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {headers.map((header, index) => (
              <th key={index} scope="col" className={`${tableStyles.th} ${numeric.includes(index) ? "text-right" : ""}`}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((row, rowIndex) => {
            const { key, cells, data } = Array.isArray(row) ? { key: String(rowIndex), cells: row, data: undefined } : row;
            const attributes = Object.fromEntries(Object.entries(data ?? {}).map(([name, value]) => [`data-${name}`, value]));
            return (
              <tr key={key} data-testid={rowTestId} {...attributes}>
                {cells.map((cell, index) => (
                  <td key={index} className={cellClass(index)}>
                    {cell}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
