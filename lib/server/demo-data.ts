import "server-only";
// Loads the project's own demo benchmark and demo runs (prisma/demo) so a fresh local start shows a populated
// dashboard. Written for this project; the real benchmark is imported with `npm run import`.
import path from "node:path";
import { DEMO_IMPORTER } from "@/lib/leaderboard/benchmarks";
import type { Database } from "./db";
import { expandRunPaths, readImportFiles, runImport, type ImportOutcome } from "./import/import-service";

export const DEMO_DIR = path.join(process.cwd(), "prisma", "demo");
export const DEMO_BENCHMARK_NAME = "Chat2Workflow demo";

export async function seedDemoData(db: Database): Promise<ImportOutcome> {
  const runPaths = await expandRunPaths([path.join(DEMO_DIR, "runs")]);
  const files = await readImportFiles(runPaths.files, 10 * 1024 * 1024);
  const issues = [...runPaths.issues, ...files.issues];
  if (issues.length) return { ok: false, issues };
  return runImport(
    db,
    {
      benchmark: { kind: "directory", dir: path.join(DEMO_DIR, "benchmark"), name: DEMO_BENCHMARK_NAME },
      runs: files.files.map((file) => ({ ...file, name: path.relative(DEMO_DIR, file.name) })),
      importedBy: DEMO_IMPORTER,
    },
    { maxFileBytes: 10 * 1024 * 1024, maxResponses: 10_000 },
  );
}
