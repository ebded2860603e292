// The stability view needs one model whose row pools several runs, and the shared benchmark holds one run per model:
// this server imports three of them (GPT-5.2, GPT-5.1, GLM-4.7) under one name, an illustration of the view only.
import { rmSync } from "node:fs";
import path from "node:path";
import { locateBenchmarkDir } from "../../lib/server/benchmark-location";

const ROOT = path.resolve(__dirname, "..", "..");
const DATABASE = path.join(ROOT, "data", "screenshots-stability.db");
const ILLUSTRATION_MODEL = "three_runs_illustration";
const RUNS = ["gpt_5d2.json", "gpt_5d1.json", "glm_4d7.json"];

async function importIllustration(): Promise<void> {
  const shared = locateBenchmarkDir({ projectDir: ROOT });
  if (!shared.ok) throw new Error(shared.message);
  for (const suffix of ["", "-journal", "-wal", "-shm"]) rmSync(`${DATABASE}${suffix}`, { force: true });
  process.env.DATABASE_URL = `file:${DATABASE}`;
  process.env.APP_ENV = "local";
  process.env.SKIP_DEMO_DATA = "true";
  const { setup } = await import("../setup");
  const { createDatabaseClient } = await import("@/lib/server/db");
  const { readImportFiles, runImport } = await import("@/lib/server/import/import-service");
  const env = await setup({ log: () => undefined });
  const db = createDatabaseClient(env.DATABASE_URL);
  try {
    const { files } = await readImportFiles(RUNS.map((run) => path.join(shared.dir, "runs", run)), 64 * 1024 * 1024);
    const outcome = await runImport(db, { benchmark: { kind: "directory", dir: shared.dir }, runs: files, model: ILLUSTRATION_MODEL, importedBy: "screenshots" }, { maxFileBytes: 64 * 1024 * 1024, maxResponses: 100_000 });
    if (!outcome.ok) throw new Error(outcome.issues.map((issue) => issue.message).join("\n"));
    console.log(`• imported ${RUNS.join(", ")} as ${ILLUSTRATION_MODEL}`);
  } finally {
    await db.$disconnect();
  }
}

importIllustration()
  .then(async () => (await import("../start")).runStart(process.argv.slice(2)))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
