// Creates one throwaway SQLite database per integration run, migrated like production, and removes it afterwards.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { runPrisma } from "../../scripts/prisma-offline.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
  }
}

export default function setup(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), "c2w-integration-"));
  const databaseUrl = `file:${path.join(dir, "integration.db")}`;
  const result = runPrisma(["migrate", "deploy"], { env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: "pipe" });
  if (result.status !== 0) {
    throw new Error(`migrate deploy failed for the integration database:\n${result.stdout}${result.stderr}`);
  }
  project.provide("databaseUrl", databaseUrl);
  return () => rmSync(dir, { recursive: true, force: true });
}
