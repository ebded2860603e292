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
