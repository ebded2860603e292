// Number and date formatting shared by pages, exports and CLIs, so a rate reads the same everywhere.
// Pure; rates are fractions in [0, 1] and print as percentages with two decimals, as in the paper's tables.

export function formatPercent(rate: number | null | undefined, digits = 2): string {
  if (rate === null || rate === undefined || Number.isNaN(rate)) return "—";
  return `${(rate * 100).toFixed(digits)}%`;
}

export function formatRatio(numerator: number, denominator: number, digits = 2): string {
  return denominator > 0 ? formatPercent(numerator / denominator, digits) : "—";
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** US dollars: cents, or five decimals for amounts under a cent (a few cheap calls). */
export function formatUsd(value: number): string {
  return value < 0.01 && value > 0 ? `$${value.toFixed(5)}` : `$${value.toFixed(2)}`;
}

/** A stable, locale-independent date and time (UTC), e.g. "2026-11-22 07:15 UTC". */
export function formatDateTime(value: Date | string): string {
  const date = typeof value === "string" ? new Date(value) : value;
  return `${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
}
