// Turns a raw statement written for both databases into PostgreSQL's spelling: `?` parameters become `$1, $2, …`
// and SQLite's `INDEXED BY "<index>"` planner hints are dropped (PostgreSQL's planner picks indexes itself).
// Guarantees: text inside '…' strings, "…" identifiers and -- comments is never changed.

const INDEX_HINT = /^\s*INDEXED\s+BY\s+"[^"]*"/i;

export function toPostgresStatement(sql: string): string {
  let out = "";
  let parameter = 0;
  let index = 0;
  while (index < sql.length) {
    const char = sql[index]!;
    if (char === "'" || char === '"') {
      const end = closingQuote(sql, index, char);
      out += sql.slice(index, end);
      index = end;
    } else if (char === "-" && sql[index + 1] === "-") {
      const end = sql.indexOf("\n", index);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(index, stop);
      index = stop;
    } else if (char === "?") {
      parameter += 1;
      out += `$${parameter}`;
      index += 1;
    } else if ((char === "I" || char === "i") && /\s/.test(sql[index - 1] ?? " ") && INDEX_HINT.test(sql.slice(index))) {
      const hint = INDEX_HINT.exec(sql.slice(index))!;
      out = out.replace(/\s+$/, "");
      index += hint[0].length;
    } else {
      out += char;
      index += 1;
    }
  }
  return out;
}

/** The index just past the quote closing the one at `start` (a doubled quote is an escaped one). */
function closingQuote(sql: string, start: number, quote: string): number {
  let index = start + 1;
  while (index < sql.length) {
    if (sql[index] === quote) {
      if (sql[index + 1] === quote) index += 2;
      else return index + 1;
    } else index += 1;
  }
  return sql.length;
}
