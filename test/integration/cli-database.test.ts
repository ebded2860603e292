// The database command lines on files they did not create: a brand-new path is created and migrated, an outdated
// file gets the migrations it lacks (as Prisma records them), and a file that is not a database is one clear error.
// Runs the CLIs the way users do, through `npm run -s`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { committedMigrations, migrateDatabase } from "../../scripts/lib/migrate";
import { runPrisma } from "../../scripts/prisma-offline.mjs";
import { benchmarkDir, benchmarkMissingReason } from "../support/benchmark-dir";
import { expectedFromFiles } from "../support/recorded-counts";

const ROOT = path.resolve(__dirname, "../..");
const scratch = mkdtempSync(path.join(tmpdir(), "c2w-cli-database-"));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function npmRun(script: string, ...args: string[]) {
  return spawnSync("npm", ["run", "-s", script, "--", ...args], { cwd: ROOT, encoding: "utf8", env: { ...process.env, PUBLIC_READ: "false" } });
}

describe("a database file the CLI has not seen", () => {
  it("is created with every migration, saying so in one line, and Prisma sees them applied", () => {
    const file = path.join(scratch, "nested", "fresh.db");
    const exported = npmRun("export", "leaderboard", "--database", `file:${file}`);
    expect(exported.stderr.split("\n")[0]).toBe(`created database ${file} (applied ${committedMigrations().length} migrations)`);
    expect(exported.stderr).toContain("no benchmark has been imported");
    expect(exported.status).toBe(1);
    const status = runPrisma(["migrate", "status"], { env: { ...process.env, DATABASE_URL: `file:${file}` }, stdio: "pipe" });
    expect(status.stdout).toContain("Database schema is up to date!");
    expect(status.status).toBe(0);
  });

  it("gets the migrations an outdated file lacks, and nothing on the next run", () => {
    const file = path.join(scratch, "outdated.db");
    const migrations = committedMigrations();
    const latest = migrations.at(-1)!.name;
    expect(migrateDatabase(`file:${file}`, migrations.slice(0, -1)).applied).toHaveLength(migrations.length - 1);
    const first = npmRun("user", "list", "--database", `file:${file}`);
    expect(first.stderr).toBe(`migrated database ${file}: applied 1 migration (${latest})\n`);
    expect(first.stdout).toBe("No users.\n");
    expect(first.status).toBe(0);
    const second = npmRun("user", "list", "--database", `file:${file}`);
    expect(second.stderr).toBe("");
    expect(second.status).toBe(0);
  });

  it("that is not a database gets one line naming the file and the reason, and the environment-error exit status (3)", () => {
    const file = path.join(scratch, "notes.db");
    writeFileSync(file, "these are not the tables you are looking for\n".repeat(100));
    for (const result of [npmRun("export", "leaderboard", "--database", `file:${file}`), npmRun("export:annotations", "--database", `file:${file}`)]) {
      expect(result.stderr).toBe(`error: cannot open database ${file}: file is not a database\n`);
      expect(result.status).toBe(3);
    }
    expect(readFileSync(file, "utf8")).toContain("not the tables");
  });
});

describe.skipIf(!benchmarkDir)(`import into a new database with the CLI alone${benchmarkDir ? "" : ` (skipped: ${benchmarkMissingReason})`}`, () => {
  it("reproduces the recorded pass and resolve counts of every run in the exported leaderboard", () => {
    const dir = benchmarkDir!;
    const url = `file:${path.join(scratch, "imported.db")}`;
    const imported = npmRun("import", "--benchmark", dir, "--runs", path.join(dir, "runs"), "--database", url, "--json");
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stderr.split("\n")[0]).toMatch(/^created database .*imported\.db \(applied \d+ migrations\)$/);
    const outcome = JSON.parse(imported.stdout) as { ok: boolean; runs: unknown[] };
    expect(outcome.ok).toBe(true);
    expect(outcome.runs).toHaveLength(12);

    const exported = npmRun("export", "leaderboard", "--database", url, "--all-rounds");
    expect(exported.status, exported.stderr).toBe(0);
    expect(exported.stderr).toBe("");
    const rows = JSON.parse(exported.stdout) as { model: string; scope: string; key: string; passNum: number; passDen: number; resolveNum: number; resolveDen: number }[];
    const runFiles = committedRunFiles(dir);
    const expected = expectedFromFiles(path.join(dir, "dataset/query.json"), runFiles);
    expect(rows).toHaveLength(expected.size);
    for (const row of rows) {
      const entry = expected.get(`${row.model}|${row.scope}|${row.key}`);
      expect(entry, `${row.model} ${row.scope} ${row.key}`).toBeDefined();
      expect([row.passNum, row.passDen, row.resolveNum, row.resolveDen], `${row.model} ${row.scope} ${row.key}`).toEqual([entry!.pass, entry!.turns, entry!.resolve, 3 * entry!.turns]);
    }
  });
});

function committedRunFiles(dir: string): { name: string; content: string }[] {
  const runs = path.join(dir, "runs");
  return readdirSync(runs)
    .filter((name) => name.endsWith(".json"))
    .map((name) => ({ name, content: readFileSync(path.join(runs, name), "utf8") }));
}
