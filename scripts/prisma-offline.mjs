#!/usr/bin/env node
// Runs the Prisma CLI without engine downloads: Prisma 6.19 with the driver adapter needs no engines, but the CLI
// still looks for them and tries to download them unless these variables point at existing files.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { writePostgresSchema } from "./pg-schema.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const placeholderDir = path.join(root, "node_modules", ".cache", "prisma-offline");

export function offlinePrismaEnv(baseEnv = process.env) {
  mkdirSync(placeholderDir, { recursive: true });
  const env = { ...baseEnv, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1", PRISMA_DISABLE_WARNINGS: "1" };
  for (const [name, file] of [
    ["PRISMA_QUERY_ENGINE_LIBRARY", "libquery_engine-placeholder.so.node"],
    ["PRISMA_SCHEMA_ENGINE_BINARY", "schema-engine-placeholder"],
  ]) {
    if (env[name] && existsSync(env[name])) continue;
    const placeholder = path.join(placeholderDir, file);
    if (!existsSync(placeholder)) writeFileSync(placeholder, "");
    env[name] = placeholder;
  }
  return env;
}

export function runPrisma(args, options = {}) {
  const cli = path.join(root, "node_modules", "prisma", "build", "index.js");
  return spawnSync(process.execPath, [cli, ...args], {
    cwd: root,
    env: offlinePrismaEnv(options.env ?? process.env),
    stdio: options.stdio ?? "inherit",
    encoding: "utf8",
  });
}

/**
 * `generate` without `--schema` regenerates the PostgreSQL schema from the SQLite one (scripts/pg-schema.mjs) and
 * generates both clients, so one command keeps the two in step.
 */
function runCli(args) {
  if (args[0] !== "generate" || args.some((arg) => arg === "--schema" || arg.startsWith("--schema="))) return runPrisma(args).status ?? 1;
  writePostgresSchema();
  const sqlite = runPrisma(args).status ?? 1;
  if (sqlite !== 0) return sqlite;
  return runPrisma([...args, "--schema", path.join("prisma", "postgresql", "schema.prisma")]).status ?? 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exit(runCli(process.argv.slice(2)));
}
