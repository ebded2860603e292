import "server-only";
// Model endpoints and Dify connections are settings rows that hold one secret: one implementation of their
// authorization, reads, writes and secret encryption, each kind naming its table, its view and its secret's columns.
import { assertAllowed } from "./authz";
import type { Database } from "./db";
import { encryptSecret, secretHint } from "./secrets";
import type { SessionUser } from "./session";

/** A new secret to store, "keep" the stored one, or "clear" it. */
export type SecretChange = { set: string } | "keep" | "clear";

/** The Prisma calls the settings make on a kind's table (its delegate, e.g. `db.modelEndpoint`). */
export interface SettingsTable<Select, Row> {
  findMany(args: { orderBy: { label: "asc" }; select: Select }): PromiseLike<Row[]>;
  findUnique(args: { where: { id: string }; select: Select }): PromiseLike<Row | null>;
  create(args: { data: never; select: Select }): PromiseLike<Row>;
  updateMany(args: { where: { id: string }; data: never }): PromiseLike<{ count: number }>;
  deleteMany(args: { where: { id: string } }): PromiseLike<{ count: number }>;
}

export interface ConnectionKind<Select, Row, View> {
  table: (db: Database) => SettingsTable<Select, Row>;
  /** The columns a view is made from (never the secret's plaintext, which is not stored). */
  select: Select;
  toView: (row: Row) => View;
  /** The column of the encrypted secret, the value it holds when cleared, and the column of its last characters if shown. */
  secret: { cipherColumn: string; clearedValue: null | ""; hintColumn?: string };
}

/** Reading needs "runJobs" (choosing one to run with); writing and testing need "manageEndpoints". */
export function connectionSettings<Select, Row, View, Fields extends object>(kind: ConnectionKind<Select, Row, View>) {
  const { cipherColumn, clearedValue, hintColumn } = kind.secret;
  const secretColumns = (change: SecretChange): Record<string, string | null> => {
    if (change === "keep") return {};
    if (change === "clear") return { [cipherColumn]: clearedValue, ...(hintColumn ? { [hintColumn]: null } : {}) };
    return { [cipherColumn]: encryptSecret(change.set), ...(hintColumn ? { [hintColumn]: secretHint(change.set) } : {}) };
  };

  const get = async (db: Database, actor: SessionUser | null, id: string): Promise<View | null> => {
    assertAllowed(actor, "runJobs");
    const row = await kind.table(db).findUnique({ where: { id }, select: kind.select });
    return row ? kind.toView(row) : null;
  };

  // The kind's zod schema checked the fields; the secret's columns are the kind's own, so the row data is the table's.
  const rowData = (data: object) => data as never;

  return {
    async list(db: Database, actor: SessionUser | null): Promise<View[]> {
      assertAllowed(actor, "runJobs");
      const rows = await kind.table(db).findMany({ orderBy: { label: "asc" }, select: kind.select });
      return rows.map(kind.toView);
    },
    get,
    async create(db: Database, actor: SessionUser, fields: Fields, secret: SecretChange): Promise<View> {
      assertAllowed(actor, "manageEndpoints");
      const row = await kind.table(db).create({ data: rowData({ ...fields, ...secretColumns(secret), createdBy: actor.id }), select: kind.select });
      return kind.toView(row);
    },
    /** Null when the row no longer exists. */
    async update(db: Database, actor: SessionUser, id: string, fields: Fields, secret: SecretChange): Promise<View | null> {
      assertAllowed(actor, "manageEndpoints");
      const updated = await kind.table(db).updateMany({ where: { id }, data: rowData({ ...fields, ...secretColumns(secret) }) });
      if (updated.count === 0) return null;
      return get(db, actor, id);
    },
    async remove(db: Database, actor: SessionUser, id: string): Promise<boolean> {
      assertAllowed(actor, "manageEndpoints");
      const deleted = await kind.table(db).deleteMany({ where: { id } });
      return deleted.count > 0;
    },
  };
}
