// The PostgreSQL driver adapter for the Prisma CLI (prisma.config.ts). Prisma 6.19's schema engine reads the
// catalog through the adapter, and @prisma/adapter-pg refuses catalog column types such as `name` ("Column type
// 'name' could not be deserialized", prisma/orm#27403); these are text on the wire, so they are reported as text.
// The engine also sends a whole migration script as one parameterless statement, which the extended protocol
// rejects ("cannot insert multiple commands into a prepared statement"); those go through the simple protocol.
import { randomUUID } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import { postgresConnectionConfig } from "../../lib/database-url";

// Catalog types adapter-pg has no mapping for: "char", name, int2vector, regproc, xid, cid, oidvector,
// pg_node_tree, "char"[], name[], regclass, regtype, xid8.
const CATALOG_TEXT_TYPES = new Set([18, 19, 22, 24, 28, 29, 30, 194, 1002, 1003, 2205, 2206, 5069]);
const TEXT_TYPE_ID = 25;

interface Queryable {
  client: { query(sql: string): Promise<unknown> };
  performIO(query: unknown): Promise<{ fields: { dataTypeID: number }[] }>;
  executeRaw(query: { sql: string; args: unknown[] }): Promise<number>;
  startTransaction?(isolationLevel?: unknown): Promise<unknown>;
}

function reportCatalogTypesAsText<T>(queryable: T): T {
  const target = queryable as unknown as Queryable;
  const performIO = target.performIO.bind(target);
  target.performIO = async (query) => {
    const result = await performIO(query);
    for (const field of result.fields) if (CATALOG_TEXT_TYPES.has(field.dataTypeID)) field.dataTypeID = TEXT_TYPE_ID;
    return result;
  };
  const executeRaw = target.executeRaw.bind(target);
  target.executeRaw = async (query) => {
    if (query.args.length > 0) return executeRaw(query);
    const results = await target.client.query(query.sql);
    const last = Array.isArray(results) ? results.at(-1) : results;
    return (last as { rowCount?: number | null } | undefined)?.rowCount ?? 0;
  };
  if (target.startTransaction) {
    const startTransaction = target.startTransaction.bind(target);
    target.startTransaction = async (isolationLevel) => reportCatalogTypesAsText(await startTransaction(isolationLevel));
  }
  return queryable;
}

/**
 * A migration-aware adapter factory for the database at `url`. Its shadow database (for `migrate diff
 * --from-migrations`) is created beside that database and dropped once its own connections are closed; the stock
 * factory drops it while its pool still holds a connection, which PostgreSQL refuses.
 */
export function postgresMigrateAdapter(url: string): PrismaPg {
  const config = postgresConnectionConfig(url);
  const factory = new PrismaPg(config);
  const connect = factory.connect.bind(factory);
  factory.connect = async () => reportCatalogTypesAsText(await connect());
  factory.connectToShadowDb = async () => {
    const admin = await connect();
    const name = `c2w_shadow_${randomUUID().replace(/-/g, "")}`;
    await admin.executeScript(`CREATE DATABASE "${name}"`);
    const shadow = await new PrismaPg({ ...config, database: name }).connect();
    const dispose = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await dispose();
      try {
        await admin.executeScript(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await admin.dispose();
      }
    };
    return reportCatalogTypesAsText(shadow);
  };
  return factory;
}
