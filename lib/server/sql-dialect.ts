import "server-only";
// The few pieces of raw SQL that SQLite and PostgreSQL spell differently, so hot-path statements are written once.
// Everything else in raw SQL is kept portable by convention: quoted identifiers and aliases, booleans compared with
// TRUE/FALSE or turned into numbers with CAST(… AS INTEGER), subqueries in FROM named, `?` parameters (rewritten
// to $n for PostgreSQL by lib/server/db.ts), and `ON CONFLICT … DO NOTHING` instead of `INSERT OR IGNORE`.
import { dialectOf } from "./db";

/** `expr` of every row of the group joined by `separator` (SQLite group_concat, PostgreSQL string_agg). */
export function joinedText(db: object, expr: string, separator = ","): string {
  const quoted = `'${separator.replace(/'/g, "''")}'`;
  return dialectOf(db) === "postgres" ? `string_agg(CAST(${expr} AS TEXT), ${quoted})` : `group_concat(${expr}, ${quoted})`;
}
