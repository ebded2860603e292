import "server-only";
// Keeps the result of an expensive read until the database changes, read from the database itself on every request
// so several app instances (and workers, and CLIs) sharing one database invalidate each other's caches:
// - SQLite: data_version moves when another connection commits (an import, the CLI), total_changes() when this one writes.
// - PostgreSQL: the current snapshot (xmin:xmax:in-progress xids). A transaction gets an xid only when it writes, so
//   the snapshot changes whenever any transaction starts writing or a writing transaction ends, and equal snapshots
//   see exactly the same committed data. Conservative (any write anywhere on the server moves it), free (no table,
//   trigger or lock), and unlike LISTEN/NOTIFY it cannot miss a change while a connection is down.
// A value is stored under the version read before computing it, so a write during the computation only causes a
// recomputation next time; a stale value is never served. Callers check authorization before asking the cache.
import { dialectOf, type Database } from "../db";

interface Entry {
  version: string;
  value: unknown;
}

const MAX_ENTRIES = 64;
const caches = new WeakMap<Database, Map<string, Entry>>();

export async function databaseVersion(db: Database): Promise<string> {
  if (dialectOf(db) === "postgres") {
    const [row] = await db.$queryRawUnsafe<{ snapshot: string }[]>(`SELECT pg_current_snapshot()::text AS "snapshot"`);
    return String(row?.snapshot);
  }
  const rows = await db.$queryRawUnsafe<{ dataVersion: unknown; changes: unknown }[]>(
    `SELECT (SELECT data_version FROM pragma_data_version) AS "dataVersion", total_changes() AS "changes"`,
  );
  const row = rows[0];
  return `${String(row?.dataVersion)}:${String(row?.changes)}`;
}

export async function cachedRead<T>(db: Database, key: string, compute: () => Promise<T>): Promise<T> {
  const version = await databaseVersion(db);
  let cache = caches.get(db);
  if (cache === undefined) {
    cache = new Map();
    caches.set(db, cache);
  }
  const hit = cache.get(key);
  if (hit && hit.version === version) {
    // Most recently used last, so the oldest entry is the first to go.
    cache.delete(key);
    cache.set(key, hit);
    return hit.value as T;
  }
  const value = await compute();
  cache.delete(key);
  cache.set(key, { version, value });
  while (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}
