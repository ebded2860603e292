"use client";

// A list table the reader can sort (click a header; again to reverse) and filter (a text box over each row's
// names). Cells are rendered on the server and passed in; only their order and visibility change here.
import { useMemo, useState, type ReactNode } from "react";
import { filterRows, sortRows, type SortDirection, type SortValue } from "@/lib/tables/sort-filter";
import { inputStyles, labelStyles, tableStyles } from "./styles";

export interface SortableColumn {
  label: string;
  /** Right-aligned, sorted high to low first. */
  numeric?: boolean;
  /** Extra classes of this column's header and cells (e.g. the sticky first column). */
  className?: string;
  /** Not sortable (e.g. actions). */
  unsortable?: boolean;
  /** Screen-reader-only header text. */
  hiddenLabel?: boolean;
}

export interface SortableRowInput {
  id: string;
  cells: ReactNode[];
  values: SortValue[];
  text: string;
  /** data-* attributes of the row (tests and links use them). */
  data?: Record<string, string>;
}

export function SortableTable({
  caption,
  columns,
  rows,
  testId,
  rowTestId,
  filterLabel = "Filter",
  filterPlaceholder,
  initialSort = null,
}: {
  caption: string;
  columns: SortableColumn[];
  rows: SortableRowInput[];
  testId?: string;
  rowTestId?: string;
  filterLabel?: string;
  filterPlaceholder?: string;
  initialSort?: { column: number; direction: SortDirection } | null;
}) {
  const [sort, setSort] = useState(initialSort);
  const [query, setQuery] = useState("");
  const shown = useMemo(() => sortRows(filterRows(rows, query), sort?.column ?? null, sort?.direction ?? "asc"), [rows, query, sort]);
  const toggle = (column: number) =>
    setSort((current) =>
      current?.column === column ? { column, direction: current.direction === "asc" ? "desc" : "asc" } : { column, direction: columns[column]?.numeric ? "desc" : "asc" },
    );

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <label className={labelStyles}>
          {filterLabel}
          <input type="search" className={inputStyles} value={query} placeholder={filterPlaceholder} onChange={(event) => setQuery(event.target.value)} />
        </label>
        <p className="text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
          {shown.length === rows.length ? `${rows.length} rows` : `${shown.length} of ${rows.length} rows`}
        </p>
      </div>
      <div className={`relative ${tableStyles.wrapper}`}>
        <table className={tableStyles.table} data-testid={testId}>
          <caption className="sr-only">{caption}. Column headers sort.</caption>
          <thead>
            <tr>
              {columns.map((column, index) => {
                const current = sort?.column === index ? (sort.direction === "asc" ? "ascending" : "descending") : "none";
                return (
                  <th key={column.label} scope="col" aria-sort={column.unsortable ? undefined : current} className={`${tableStyles.th} ${column.numeric ? "text-right" : ""} ${column.className ?? ""}`}>
                    {column.unsortable ? (
                      <span className={column.hiddenLabel ? "sr-only" : undefined}>{column.label}</span>
                    ) : (
                      <button type="button" onClick={() => toggle(index)} className="inline-flex items-center gap-0.5 rounded uppercase tracking-wide hover:text-slate-900 dark:hover:text-white">
                        {column.label}
                        <span aria-hidden="true" className="w-3 text-slate-400">
                          {current === "ascending" ? "▲" : current === "descending" ? "▼" : "↕"}
                        </span>
                      </button>
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {shown.map((row) => (
              <tr key={row.id} data-testid={rowTestId} {...Object.fromEntries(Object.entries(row.data ?? {}).map(([key, value]) => [`data-${key}`, value]))}>
                {row.cells.map((cell, index) => (
                  <td key={index} className={`${columns[index]?.numeric ? tableStyles.tdNumber : tableStyles.td} ${columns[index]?.className ?? ""}`}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {shown.length === 0 ? <p className="px-4 py-6 text-center text-sm text-slate-600 dark:text-slate-400">No row matches the filter.</p> : null}
      </div>
    </div>
  );
}
