// Copies every application table from one database into another, whichever kinds they are (SQLite → PostgreSQL when a
// lab outgrows one machine, PostgreSQL → SQLite for a local copy). Both must be at the same migration (the CLI
// migrates them first). The copy is all or nothing: it refuses a target that holds any row and a source with
// unfinished jobs, and writes the target in one transaction, so a failure leaves the target as empty as it was.
//
// Why unfinished jobs are refused: a job's pending items live partly outside the tables (pg-boss's own schema on
// PostgreSQL), so they cannot be carried over faithfully; finished jobs are plain rows and are copied.
import "server-only";
import { Prisma } from "@/generated/prisma/client";
import { dialectOf, type Database } from "../db";
import { UNFINISHED_JOB_STATUSES } from "../jobs/queue";

/** Rows read from the source at a time. */
const READ_BATCH = 1_000;
/** Bound parameters per insert, under both databases' limits (SQLite 32,766; PostgreSQL 65,535). */
const MAX_PARAMETERS = 30_000;
/** A large copy is one long transaction; the default 5 s would cut it short. */
const TRANSACTION = { maxWait: 60_000, timeout: 6 * 60 * 60 * 1_000 } as const;


export interface TableCopy {
  table: string;
  rows: number;
}

export type CopyDatabaseResult = { ok: true; tables: TableCopy[]; rows: number } | { ok: false; reason: "target-not-empty" | "unfinished-jobs" | "schema"; message: string };

export interface CopyDatabaseOptions {
  /** Called after each table is written (not yet committed). */
  onTable?: (copy: TableCopy, index: number, count: number) => void;
}

type Delegate = {
  count(args?: object): Promise<number>;
  findMany(args: object): Promise<Record<string, unknown>[]>;
  createMany(args: { data: Record<string, unknown>[] }): Promise<{ count: number }>;
};

const delegateName = (model: string) => `${model.charAt(0).toLowerCase()}${model.slice(1)}`;
const delegateOf = (db: object, model: string) => (db as Record<string, Delegate>)[delegateName(model)]!;
/** Models keyed by a natural key; every other model's primary key is `id` (the copy test checks all of them). */
const KEYED_BY_NAME: ReadonlySet<string> = new Set(["Setting", "SignInThrottle"]);
export const primaryKeyOf = (model: string) => (KEYED_BY_NAME.has(model) ? "key" : "id");

/** Foreign keys as (child table, parent table) pairs, read from the database that enforces them. */
async function foreignKeys(db: Database): Promise<{ child: string; parent: string }[]> {
  const sql =
    dialectOf(db) === "postgres"
      ? `SELECT CAST(tc.table_name AS TEXT) AS "child", CAST(ccu.table_name AS TEXT) AS "parent"
           FROM information_schema.table_constraints tc
           JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.constraint_schema = tc.constraint_schema
          WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()`
      : `SELECT m.name AS "child", p."table" AS "parent" FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) p WHERE m.type = 'table'`;
  return db.$queryRawUnsafe<{ child: string; parent: string }[]>(sql);
}

/**
 * The models in an order where every table comes after the tables it references (Kahn's algorithm; ties by name, so
 * the order is stable). A table referencing itself needs no ordering here: no model does, and a cycle is reported.
 */
export function parentsFirst(models: readonly string[], edges: readonly { child: string; parent: string }[]): { ok: true; order: string[] } | { ok: false; cycle: string[] } {
  const known = new Set(models);
  const parents = new Map(models.map((model) => [model, new Set<string>()]));
  for (const edge of edges) if (known.has(edge.child) && known.has(edge.parent) && edge.child !== edge.parent) parents.get(edge.child)!.add(edge.parent);
  const order: string[] = [];
  const placed = new Set<string>();
  while (order.length < models.length) {
    const ready = models.filter((model) => !placed.has(model) && [...parents.get(model)!].every((parent) => placed.has(parent))).sort();
    if (ready.length === 0) return { ok: false, cycle: models.filter((model) => !placed.has(model)) };
    for (const model of ready) {
      order.push(model);
      placed.add(model);
    }
  }
  return { ok: true, order };
}

export async function copyDatabase(source: Database, target: Database, options: CopyDatabaseOptions = {}): Promise<CopyDatabaseResult> {
  const models = Object.values(Prisma.ModelName);
  const edges = await foreignKeys(target);
  const ordered = parentsFirst(models, edges);
  if (!ordered.ok) return { ok: false, reason: "schema", message: `The tables ${ordered.cycle.join(", ")} reference each other in a cycle; they cannot be copied in order.` };

  const occupied: string[] = [];
  for (const model of models) if ((await delegateOf(target, model).count()) > 0) occupied.push(model);
  if (occupied.length > 0) {
    return { ok: false, reason: "target-not-empty", message: `The target database already holds rows (in ${occupied.join(", ")}); copy into an empty database.` };
  }
  const unfinished = await source.job.findMany({ where: { status: { in: [...UNFINISHED_JOB_STATUSES] } }, select: { id: true, kind: true, status: true }, take: 5 });
  const importing = await source.importJob.findMany({ where: { status: { in: ["queued", "running"] } }, select: { id: true }, take: 5 });
  if (unfinished.length > 0 || importing.length > 0) {
    const named = [...unfinished.map((job) => `${job.kind} job ${job.id} (${job.status})`), ...importing.map((job) => `import ${job.id}`)];
    return { ok: false, reason: "unfinished-jobs", message: `The source has unfinished work: ${named.join(", ")}. Let it finish or cancel it, then copy.` };
  }

  const postgresSource = dialectOf(source) === "postgres";
  const tables = await source.$transaction(
    // One snapshot of the source: rows written while the copy runs are either all in it or all out of it.
    (reader) =>
      target.$transaction(async (writer) => {
        const copied: TableCopy[] = [];
        for (const [index, model] of ordered.order.entries()) {
          const key = primaryKeyOf(model);
          let rows = 0;
          let after: unknown = undefined;
          for (;;) {
            const page = await delegateOf(reader, model).findMany({
              orderBy: { [key]: "asc" },
              take: READ_BATCH,
              ...(after === undefined ? {} : { cursor: { [key]: after }, skip: 1 }),
            });
            if (page.length === 0) break;
            const perInsert = Math.max(1, Math.floor(MAX_PARAMETERS / Object.keys(page[0]!).length));
            for (let start = 0; start < page.length; start += perInsert) await delegateOf(writer, model).createMany({ data: page.slice(start, start + perInsert) });
            rows += page.length;
            after = page.at(-1)![key];
            if (page.length < READ_BATCH) break;
          }
          const copy = { table: model, rows };
          copied.push(copy);
          options.onTable?.(copy, index, ordered.order.length);
        }
        return copied;
      }, TRANSACTION),
    // The SQLite client's types know only Serializable; the PostgreSQL client behind the same type takes this level.
    { ...TRANSACTION, ...(postgresSource ? { isolationLevel: "RepeatableRead" as Prisma.TransactionIsolationLevel } : {}) },
  );
  return { ok: true, tables, rows: tables.reduce((sum, table) => sum + table.rows, 0) };
}
