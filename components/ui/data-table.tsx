import type { ReactNode } from "react";
import { tableStyles } from "./styles";

/** A plain table for the figures behind a chart or a list: a caption, column headers, and rows of cells. */
export function DataTable({ caption, headers, rows, numeric = [], testId }: { caption: string; headers: string[]; rows: ReactNode[][]; numeric?: number[]; testId?: string }) {
  return (
    <div className={tableStyles.wrapper}>
      <table className={tableStyles.table} data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {headers.map((header, index) => (
              <th key={header} scope="col" className={`${tableStyles.th} ${numeric.includes(index) ? "text-right" : ""}`}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {rows.map((cells, rowIndex) => (
            <tr key={rowIndex}>
              {cells.map((cell, index) => (
                <td key={index} className={numeric.includes(index) ? tableStyles.tdNumber : tableStyles.td}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
