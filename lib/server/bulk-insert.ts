import "server-only";
// Multi-row INSERTs through the Prisma transaction, for imports that write tens of thousands of rows: Prisma's
// createMany compiles every row through its query compiler, which costs seconds; one prepared statement per batch
// does not. Column names come from the rows' own keys, which match the Prisma schema's field names.
import type { Database } from "./db";

type Executor = Pick<Database, "$executeRawUnsafe">;

// SQLite allows 32766 bound parameters per statement, PostgreSQL 65535; stay well below both.
const MAX_PARAMETERS = 8000;

// Dates and booleans go to the driver adapter as they are: it writes each database's own DateTime and boolean form
// (SQLite: ISO 8601 text and 0/1, as Prisma itself writes them; PostgreSQL: timestamp and boolean).
function toSqlValue(value: unknown): unknown {
  return value === undefined ? null : value;
}

export async function insertRows(executor: Executor, table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.keys(rows[0]!);
  const perBatch = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const columnList = columns.map((column) => `"${column}"`).join(", ");
  const placeholders = `(${columns.map(() => "?").join(", ")})`;
  for (let start = 0; start < rows.length; start += perBatch) {
    const batch = rows.slice(start, start + perBatch);
    const values: unknown[] = [];
    for (const row of batch) for (const column of columns) values.push(toSqlValue(row[column]));
    await executor.$executeRawUnsafe(
      `INSERT INTO "${table}" (${columnList}) VALUES ${batch.map(() => placeholders).join(", ")}`,
      ...values,
    );
  }
}
