// Moving a database: `npm run db:copy` copies a SQLite file (two recorded runs, an account, an endpoint with its
// encrypted key, a finished job, a setting, cached calls) into this suite's database (SQLite or PostgreSQL) and back,
// so that every row and the leaderboard are the same; a target holding rows, a source with unfinished jobs, and a
// copy failing part way through (at the Diagnostic table) all leave the target as it was.
import { randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import { copyDatabase, parentsFirst, primaryKeyOf } from "@/lib/server/database-copy/copy-database";
import { createDatabaseClient, type Database } from "@/lib/server/db";
import { getExportRates } from "@/lib/server/data/leaderboard";
import { createEndpoint } from "@/lib/server/endpoints/endpoints";
import { expandRunPaths, readImportFiles, runImport } from "@/lib/server/import/import-service";
import { createUser } from "@/lib/server/users";
import { migrateDatabase } from "../../scripts/lib/migrate";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { emptyDatabase, testDatabase, testDatabaseUrl, testingOnPostgres } from "../support/database";

process.env.C2W_SECRETS_KEY ??= randomBytes(32).toString("base64");

const ROOT = path.resolve(__dirname, "../..");
const scratch = mkdtempSync(path.join(tmpdir(), "c2w-db-copy-"));
const admin = { id: "admin", email: "admin@example.org", name: null, role: "admin" as const };
const models = Object.values(Prisma.ModelName);

function dbCopy(...args: string[]) {
  return spawnSync("npm", ["run", "-s", "db:copy", "--", ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env } });
}

/** Every row of every table, by table, in primary-key order. */
async function everything(db: Database): Promise<Record<string, unknown[]>> {
  const rows: Record<string, unknown[]> = {};
  for (const model of models) {
    const key = primaryKeyOf(model);
    rows[model] = await (db as unknown as Record<string, { findMany(args: object): Promise<unknown[]> }>)[`${model.charAt(0).toLowerCase()}${model.slice(1)}`]!.findMany({ orderBy: { [key]: "asc" } });
  }
  return rows;
}

async function leaderboard(db: Database) {
  const viewer = { id: "v", email: "v@example.org", name: null, role: "viewer" as const };
  const rates = await getExportRates(db, viewer, "measured", null);
  expect(rates.rows.length).toBeGreaterThan(0);
  return rates;
}

describe.skipIf(!benchmarkDir)(`copying a database${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  const sourceUrl = `file:${path.join(scratch, "source.db")}`;
  let source: Database;
  const target = testDatabase();

  beforeAll(async () => {
    migrateDatabase(sourceUrl);
    source = createDatabaseClient(sourceUrl);
    const dir = benchmarkDir as string;
    const { files } = await readImportFiles((await expandRunPaths([path.join(dir, "runs", "claude_sonnet4d5.json"), path.join(dir, "runs", "qwen3_32B.json")])).files, 64 * 1024 * 1024);
    const imported = await runImport(source, { benchmark: { kind: "directory", dir }, runs: files, importedBy: "test" }, { maxFileBytes: 64 * 1024 * 1024, maxResponses: 100_000 });
    if (!imported.ok) throw new Error(imported.issues.map((entry) => entry.message).join("\n"));
    const user = await createUser(source, { email: "researcher@example.org", password: "a long enough password", role: "researcher" });
    if (!user.ok) throw new Error(user.issues.join("\n"));
    await createEndpoint(source, admin, { label: "judge", baseUrl: "http://127.0.0.1:9/v1", model: "stub", temperature: 0, maxTokens: null, concurrency: 2, rpm: null, tpm: null, timeoutMs: 10_000, inputPricePerMTok: 1, outputPricePerMTok: 2 }, "sk-test-key-0123456789");
    await source.job.create({ data: { kind: "judge", status: "succeeded", params: "{}", itemCount: 1, doneCount: 1, finishedAt: new Date(), items: { create: [{ key: "a", status: "done", result: "{}" }] } } });
    await source.setting.create({ data: { key: "public-read", value: "true" } });
    await source.llmCallCache.createMany({ data: [{ key: "call-1", reply: "{}", inputTokens: 3, outputTokens: 4 }] });
    await emptyDatabase(target);
  });
  afterAll(async () => {
    await source?.$disconnect();
    rmSync(scratch, { recursive: true, force: true });
  });

  it("orders tables after the tables they reference, and reports a cycle", () => {
    expect(parentsFirst(["Response", "Run", "Model"], [{ child: "Response", parent: "Run" }, { child: "Run", parent: "Model" }])).toEqual({ ok: true, order: ["Model", "Run", "Response"] });
    expect(parentsFirst(["A", "B", "C"], [{ child: "A", parent: "B" }, { child: "B", parent: "A" }])).toEqual({ ok: false, cycle: ["A", "B"] });
  });

  it(`copies every row into an empty ${testingOnPostgres() ? "PostgreSQL" : "SQLite"} database with the CLI, and back into a new file`, async () => {
    const copied = dbCopy("--from", sourceUrl, "--to", testDatabaseUrl(), "--json");
    expect(copied.stderr).not.toContain("error");
    expect(copied.status).toBe(0);
    const summary = JSON.parse(copied.stdout) as { tables: { table: string; rows: number }[]; rows: number };
    expect(summary.tables.map((table) => table.table).sort()).toEqual([...models].sort());
    expect(summary.tables.find((table) => table.table === "Response")?.rows).toBe(2 * 79);
    expect(copied.stderr).toContain(`[${models.length}/${models.length}]`);

    const original = await everything(source);
    expect(original.Diagnostic!.length).toBeGreaterThan(0);
    expect(await everything(target)).toEqual(original);
    expect(summary.rows).toBe(Object.values(original).reduce((sum, rows) => sum + rows.length, 0));
    expect(await leaderboard(target)).toEqual(await leaderboard(source));

    const backUrl = `file:${path.join(scratch, "back.db")}`;
    const back = dbCopy("--from", testDatabaseUrl(), "--to", backUrl);
    expect(back.status).toBe(0);
    expect(back.stdout).toMatch(new RegExp(String.raw`^copied \d+ rows in ${models.length} tables from .+ to file://.+back\.db in [\d.]+ s\n$`));
    const backDb = createDatabaseClient(backUrl);
    try {
      expect(await everything(backDb)).toEqual(original);
    } finally {
      await backDb.$disconnect();
    }
  });

  it("refuses a target that holds rows, and the same database twice, changing nothing", async () => {
    const before = await everything(target);
    const again = dbCopy("--from", sourceUrl, "--to", testDatabaseUrl());
    expect(again.status).toBe(1);
    expect(again.stderr).toMatch(/^error: nothing copied\. The target database already holds rows \(in [^)]*\bResponse\b[^)]*\); copy into an empty database\.$/m);
    expect(await everything(target)).toEqual(before);
    const same = dbCopy("--from", sourceUrl, "--to", sourceUrl);
    expect(same.status).toBe(2);
    expect(same.stderr).toContain("--from and --to name the same database");
    const missing = dbCopy("--from", sourceUrl);
    expect(missing.status).toBe(2);
  });

  it("refuses a source with unfinished jobs, naming them", async () => {
    await emptyDatabase(target);
    const running = await source.job.create({ data: { kind: "generate", status: "running", params: "{}", itemCount: 1 } });
    try {
      const result = await copyDatabase(source, target);
      expect(result).toMatchObject({ ok: false, reason: "unfinished-jobs", message: expect.stringContaining(`generate job ${running.id} (running)`) });
      expect(await target.benchmark.count()).toBe(0);
    } finally {
      await source.job.delete({ where: { id: running.id } });
    }
  });

  it("leaves the target empty when a row cannot be written, wherever the copy stops", async () => {
    await emptyDatabase(target);
    // A diagnostic pointing at no pass result: SQLite accepts it with foreign keys off, the target refuses it. The
    // Diagnostic table comes after most tables the copy has already written.
    const raw = createDatabaseClient(sourceUrl);
    try {
      await raw.$executeRawUnsafe("PRAGMA foreign_keys = OFF");
      await raw.$executeRawUnsafe(`UPDATE "Diagnostic" SET "passResultId" = 'no-such-pass-result' WHERE "id" = (SELECT MIN("id") FROM "Diagnostic")`);
    } finally {
      await raw.$disconnect();
    }
    const tablesWritten: string[] = [];
    await expect(copyDatabase(source, target, { onTable: (copy) => tablesWritten.push(copy.table) })).rejects.toThrow();
    expect(tablesWritten).toContain("Response");
    expect(tablesWritten).not.toContain("Diagnostic");
    for (const model of models) expect(await (target as unknown as Record<string, { count(): Promise<number> }>)[`${model.charAt(0).toLowerCase()}${model.slice(1)}`]!.count()).toBe(0);
  });
});
