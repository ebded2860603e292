// Sorting and filtering of list tables (tasks, runs): by one column either way, rows without a value always last,
// ties kept in their given order; a filter keeps rows whose text contains every typed word. Pure.

export type SortValue = string | number | null;
export type SortDirection = "asc" | "desc";

export interface SortableRow {
  values: readonly SortValue[];
  /** What the filter searches (names, labels…), any case. */
  text: string;
}

export function sortRows<T extends SortableRow>(rows: readonly T[], column: number | null, direction: SortDirection): T[] {
  if (column === null) return [...rows];
  const sign = direction === "asc" ? 1 : -1;
  return rows
    .map((row, order) => ({ row, order }))
    .sort((a, b) => {
      const x = a.row.values[column] ?? null;
      const y = b.row.values[column] ?? null;
      if (x === null || y === null) return x === y ? a.order - b.order : x === null ? 1 : -1;
      const compared = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true, sensitivity: "base" });
      return compared * sign || a.order - b.order;
    })
    .map((entry) => entry.row);
}

export function filterRows<T extends SortableRow>(rows: readonly T[], query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...rows];
  return rows.filter((row) => {
    const text = row.text.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}
