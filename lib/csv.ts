// CSV as the app's downloads write it: RFC 4180 quoting, CRLF line ends, and text cells a spreadsheet would run as
// a formula (= + - @, tab, return) defused with a leading apostrophe. Pure; the same rows always give the same bytes.

export type CellValue = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: empty for null and non-finite numbers, quoted when it holds a quote, comma or line break. */
export function csvCell(value: CellValue): string {
  if (value === null) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A header row and one row per record, each line ended by CRLF. */
export function csvDocument(header: readonly string[], rows: readonly (readonly CellValue[])[]): string {
  const lines = [header.map(csvCell).join(",")];
  for (const row of rows) lines.push(row.map(csvCell).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
