// Resolves the SQLite database location from DATABASE_URL, defaulting to data/studio.db under the project root.
// Pure string handling so the Prisma CLI config, the server client and scripts agree on one absolute path.

export const DEFAULT_DATABASE_FILE = "data/studio.db";

/**
 * Returns an absolute `file:` URL. Relative `file:` paths are resolved against `projectRoot`
 * (not the schema folder, as Prisma would), so every entry point opens the same file.
 */
export function resolveDatabaseUrl(raw: string | undefined, projectRoot: string): string {
  const value = raw && raw.trim() !== "" ? raw.trim() : `file:./${DEFAULT_DATABASE_FILE}`;
  if (!value.startsWith("file:")) return value;
  const filePath = value.slice("file:".length);
  if (filePath.startsWith("/")) return value;
  const root = projectRoot.endsWith("/") ? projectRoot.slice(0, -1) : projectRoot;
  const relative = filePath.replace(/^\.\//, "");
  return `file:${root}/${relative}`;
}

/** The filesystem path inside a `file:` URL, or null for other URLs. */
export function databaseFilePath(url: string): string | null {
  return url.startsWith("file:") ? url.slice("file:".length) : null;
}

/** True for the URLs that select PostgreSQL (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

export interface PostgresConnectionConfig {
  host: string;
  port: number;
  database: string;
  user?: string;
  password?: string;
  ssl?: boolean;
  /** Server options; `-c search_path=<schema>` when the URL names a schema. */
  options?: string;
}

/** The schema named by `?schema=` (as Prisma spells it), or null for the server's default (public). */
export function postgresSchemaOf(url: string): string | null {
  return new URL(url).searchParams.get("schema");
}

/**
 * The connection fields of a PostgreSQL URL (`postgresql://user:password@host:port/database?schema=…&sslmode=…`).
 * Fields rather than the URL because node-postgres lets a connection string win over an explicit database name.
 */
export function postgresConnectionConfig(url: string): PostgresConnectionConfig {
  const parsed = new URL(url);
  const params = parsed.searchParams;
  const sslmode = params.get("sslmode");
  const schema = params.get("schema");
  // `?host=/run/postgresql` names a Unix socket folder, as libpq allows.
  const host = params.get("host") ?? (decodeURIComponent(parsed.hostname) || "localhost");
  return {
    host,
    port: parsed.port ? Number(parsed.port) : 5432,
    database: decodeURIComponent(parsed.pathname.replace(/^\//, "")) || "postgres",
    ...(parsed.username ? { user: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(sslmode && sslmode !== "disable" ? { ssl: true } : {}),
    ...(schema ? { options: `-c search_path="${schema.replace(/"/g, '""')}"` } : {}),
  };
}
