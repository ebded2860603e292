#!/usr/bin/env node
// Derives the PostgreSQL Prisma schema (prisma/postgresql/schema.prisma) from the SQLite one: Prisma needs one
// provider per schema, so the models live once in prisma/schema.prisma and this copy differs only in its header,
// datasource provider and client output. Deterministic: the same input always gives the same bytes.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SQLITE_SCHEMA = path.join(root, "prisma", "schema.prisma");
export const POSTGRES_SCHEMA = path.join(root, "prisma", "postgresql", "schema.prisma");

const HEADER = [
  "// GENERATED from prisma/schema.prisma by scripts/pg-schema.mjs: do not edit. Change prisma/schema.prisma, then run",
  "// `npm run prisma -- generate` (regenerates this file and both clients) and `npm run db:pg-migration`.",
  "",
  "",
].join("\n");

function replaceOnce(text, pattern, replacement, what) {
  const count = [...text.matchAll(new RegExp(pattern.source, "g"))].length;
  if (count !== 1) throw new Error(`prisma/schema.prisma: expected exactly one ${what}, found ${count}`);
  return text.replace(pattern, replacement);
}

/** The PostgreSQL schema text for a SQLite schema text. */
export function postgresSchemaFrom(sqliteSchema) {
  let text = sqliteSchema.replace(/\r\n/g, "\n");
  // Drop the SQLite schema's own opening comment lines; the header above replaces them.
  text = text.replace(/^(\/\/[^\n]*\n)+\n?/, "");
  text = replaceOnce(text, /(datasource\s+db\s*\{[^}]*?provider\s*=\s*)"sqlite"/, '$1"postgresql"', 'datasource provider "sqlite"');
  text = replaceOnce(text, /(generator\s+client\s*\{[^}]*?output\s*=\s*)"\.\.\/generated\/prisma"/, '$1"../../generated/prisma-pg"', 'client output "../generated/prisma"');
  return HEADER + text;
}

/** Writes prisma/postgresql/schema.prisma; returns true when its content changed. */
export function writePostgresSchema() {
  const next = postgresSchemaFrom(readFileSync(SQLITE_SCHEMA, "utf8"));
  let current = null;
  try {
    current = readFileSync(POSTGRES_SCHEMA, "utf8");
  } catch {
    current = null;
  }
  if (current === next) return false;
  writeFileSync(POSTGRES_SCHEMA, next);
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes("--check")) {
    const expected = postgresSchemaFrom(readFileSync(SQLITE_SCHEMA, "utf8"));
    if (readFileSync(POSTGRES_SCHEMA, "utf8") !== expected) {
      console.error("prisma/postgresql/schema.prisma is out of date: run `npm run prisma -- generate`");
      process.exit(1);
    }
  } else {
    console.log(writePostgresSchema() ? "wrote prisma/postgresql/schema.prisma" : "prisma/postgresql/schema.prisma is up to date");
  }
}
