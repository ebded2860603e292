// Prisma CLI configuration: runs migrations through the better-sqlite3 driver adapter so no engine binaries are
// downloaded (see scripts/prisma-offline.mjs, which also points the CLI at placeholder engine files).
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";
import { databaseFilePath, resolveDatabaseUrl } from "./lib/database-url";

const databaseUrl = resolveDatabaseUrl(process.env.DATABASE_URL, __dirname);
process.env.DATABASE_URL = databaseUrl;

// The adapter opens the file even for `migrate diff`; SQLite creates the file but not its folder.
const databaseFile = databaseFilePath(databaseUrl);
if (databaseFile) mkdirSync(path.dirname(databaseFile), { recursive: true });

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  adapter: async () => new PrismaBetterSQLite3({ url: databaseUrl }),
});
