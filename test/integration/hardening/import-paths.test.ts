// Import paths and names: symlinks out of the allowed roots are refused with the same message as a missing file,
// file contents are never echoed, invalid UTF-8 is refused, and model names from file names follow the name rule.
import { cpSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { NOT_AVAILABLE } from "@/lib/server/benchmark-files";
import { readImportFiles, runImport } from "@/lib/server/import/import-service";
import { emptyDatabase, testDatabase } from "../../support/database";
import { tableCounts } from "../../support/table-counts";

const DEMO = path.resolve(__dirname, "../../../prisma/demo");
const LIMITS = { maxFileBytes: 50 * 1024 * 1024, maxResponses: 20_000 };
const SECRET = "top-secret-server-file: do not show";

describe("import paths", () => {
  const db = testDatabase();
  let root = "";
  let outside = "";

  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), "c2w-allowed-"));
    outside = mkdtempSync(path.join(tmpdir(), "c2w-outside-"));
    cpSync(path.join(DEMO, "benchmark"), path.join(root, "benchmark"), { recursive: true });
    writeFileSync(path.join(outside, "secret.txt"), SECRET);
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "benchmark", "prompts", "evaluation_extra.txt"));
    symlinkSync(path.join(outside, "secret.txt"), path.join(root, "linked_run.json"));
    writeFileSync(path.join(root, "latin1.json"), Buffer.from([0x5b, 0x22, 0xe9, 0x22, 0x5d]));
    writeFileSync(path.join(root, "not_json.json"), SECRET);
  });
  beforeEach(() => emptyDatabase(db));

  it("refuses a prompt symlinked out of the allowed roots, saying only 'not allowed', and writes nothing", async () => {
    const before = await tableCounts(db);
    const outcome = await runImport(db, { benchmark: { kind: "directory", dir: path.join(root, "benchmark"), allowedRoots: [root] }, runs: [], importedBy: "test" }, LIMITS);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.issues.map((issue) => issue.message)).toEqual([`prompts/evaluation_extra.txt: ${NOT_AVAILABLE}`]);
    expect(JSON.stringify(outcome)).not.toContain("top-secret");
    expect(await tableCounts(db)).toEqual(before);
  });

  it("gives a symlinked run file and a missing one the same answer", async () => {
    const read = await readImportFiles([path.join(root, "linked_run.json"), path.join(root, "missing.json")], LIMITS.maxFileBytes, [root]);
    expect(read.files).toHaveLength(0);
    expect(read.issues.map((issue) => issue.message.replace(/^.*?: /, ""))).toEqual([NOT_AVAILABLE, NOT_AVAILABLE]);
  });

  it("refuses invalid UTF-8 and never echoes a file's contents in a JSON error", async () => {
    const read = await readImportFiles([path.join(root, "latin1.json"), path.join(root, "not_json.json")], LIMITS.maxFileBytes, [root]);
    expect(read.issues.map((issue) => issue.message)).toEqual([`${path.join(root, "latin1.json")}: not valid UTF-8 text`]);
    const outcome = await runImport(db, { benchmark: { kind: "directory", dir: path.join(root, "benchmark") }, runs: read.files, importedBy: "test" }, LIMITS);
    expect(outcome.ok).toBe(false);
    expect(JSON.stringify(outcome)).not.toContain("top-secret");
    expect(JSON.stringify(outcome)).toMatch(/not valid JSON/);
  });

  it("validates model names taken from file names", async () => {
    const before = await tableCounts(db);
    const content = JSON.stringify([]);
    for (const name of ["<img src=x onerror=alert(1)>.json", `${"m".repeat(300)}.json`]) {
      const outcome = await runImport(db, { benchmark: { kind: "directory", dir: path.join(DEMO, "benchmark") }, runs: [{ name, content }], importedBy: "test" }, LIMITS);
      expect(outcome.ok).toBe(false);
      if (outcome.ok) continue;
      expect(outcome.issues[0]).toMatchObject({ file: name, field: "model" });
    }
    expect(await tableCounts(db)).toEqual(before);
  });
});
