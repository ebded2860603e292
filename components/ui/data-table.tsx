import type { ReactNode } from "react";
import { tableStyles } from "./styles";

/** A row with a stable key and the data-* attributes tests and links read (`data: { label: "x" }` is data-label="x"). */
export interface DataTableRow {
  key: string;
  cells: ReactNode[];
  data?: Record<string, string>;
}

/**
 * A plain table for the figures behind a chart or a list: a caption for screen readers, column headers, and rows of
 * cells. Numeric columns are right-aligned, `wrap` columns wrap long text, and `rowHeader` makes the first cell of
 * each row its header; `columnClasses` adds classes to a column's cells.
 */
export function DataTable({
  caption,
  headers,
  rows,
  numeric = [],
  wrap = [],
  rowHeader = false,
  columnClasses = {},
  testId,
  rowTestId,
  region,
  empty,
}: {
  caption: string;
  headers: ReactNode[];
  rows: (ReactNode[] | DataTableRow)[];
  numeric?: number[];
  wrap?: number[];
  rowHeader?: boolean;
  /** Extra classes of a column's cells, by column index. */
  columnClasses?: Readonly<Record<number, string | undefined>>;
  testId?: string;
  rowTestId?: string;
  /** Names a wrapper that scrolls sideways and takes focus, so keyboard users can scroll it. */
  region?: string;
  /** Shown in place of the table when there are no rows. */
  empty?: ReactNode;
}) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  const base = (index: number) => (numeric.includes(index) ? tableStyles.tdNumber : wrap.includes(index) ? tableStyles.tdWrap : tableStyles.td);
  const cellClass = (index: number) => [base(index), columnClasses[index]].filter(Boolean).join(" ");
  return (
    <div className={tableStyles.wrapper} {...(region ? { tabIndex: 0, role: "region", "aria-label": region } : {})}>
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
                {cells.map((cell, index) =>
                  rowHeader && index === 0 ? (
                    <th key={index} scope="row" className={cellClass(index)}>
                      {cell}
                    </th>
                  ) : (
                    <td key={index} className={cellClass(index)}>
                      {cell}
                    </td>
                  ),
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
