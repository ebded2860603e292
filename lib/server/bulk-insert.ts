import "server-only";
// Multi-row INSERTs through the Prisma transaction, for imports that write tens of thousands of rows: Prisma's
// createMany compiles every row through its query compiler, which costs seconds; one prepared statement per batch
// does not. Column names come from the rows' own keys, which match the Prisma schema's field names.
import type { Database } from "./db";

type Executor = Pick<Database, "$executeRawUnsafe">;

// SQLite allows 32766 bound parameters per statement; stay well below.
const MAX_PARAMETERS = 8000;

function toSqlValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return sqliteTimestamp(value);
  return value;
}

/** The text form Prisma's SQLite adapter writes for DateTime columns. */
export function sqliteTimestamp(date: Date): string {
  return date.toISOString().replace("Z", "+00:00");
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
