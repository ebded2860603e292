// A run whose design_principle is 2 MB: the import refuses it naming record and field and writes nothing; a long
// text already stored (an older import) reaches the response page clipped, with the whole text as a download.
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { loadResponseWithView } from "@/lib/server/data/response-view";
import { seedDemoData } from "@/lib/server/demo-data";
import { expandRunPaths, readImportFiles, runImport } from "@/lib/server/import/import-service";
import type { SessionUser } from "@/lib/server/session";
import { clipResponseView, fullFieldText, PAGE_TEXT_LIMIT } from "@/lib/viewer/page-text";
import { emptyDatabase, testDatabase } from "../../support/database";
import { tableCounts } from "../../support/table-counts";

const DEMO = path.resolve(__dirname, "../../../prisma/demo");
const LIMITS = { maxFileBytes: 50 * 1024 * 1024, maxResponses: 20_000 };
const TWO_MB = "## Plan\n\n" + "The workflow reads the paper, then summarises it. ".repeat(42_000);
const viewer: SessionUser = { id: "u1", email: "viewer@example.org", name: null, role: "viewer" };

describe("a 2 MB design_principle", () => {
  const db = testDatabase();
  beforeEach(async () => {
    await emptyDatabase(db);
    const seeded = await seedDemoData(db);
    if (!seeded.ok) throw new Error("demo data did not import");
  });

  it("is refused at import with the record and field named, and the database is unchanged", async () => {
    expect(TWO_MB.length).toBeGreaterThan(2_000_000);
    const { files } = await readImportFiles((await expandRunPaths([path.join(DEMO, "runs", "demo_alpha.json")])).files, LIMITS.maxFileBytes);
    const records = JSON.parse(files[0]!.content) as Record<string, unknown>[];
    records[3] = { ...records[3], design_principle: TWO_MB };
    const before = await tableCounts(db);
    const outcome = await runImport(
      db,
      { benchmark: { kind: "directory", dir: path.join(DEMO, "benchmark") }, runs: [{ name: "huge_model.json", content: JSON.stringify(records) }], importedBy: "test" },
      LIMITS,
    );
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.issues).toHaveLength(1);
    expect(outcome.issues[0]).toMatchObject({ file: "huge_model.json", entry: "record 3", field: "design_principle" });
    expect(outcome.issues[0]!.message).toMatch(/over the limit of 262144 per field \(IMPORT_MAX_FIELD_KB\)/);
    expect(await tableCounts(db)).toEqual(before);
  });

  it("already stored, reaches the page clipped to the display limit and downloads whole", async () => {
    const response = await db.response.findFirstOrThrow({ where: { rawText: null, designPrinciple: { not: null } } });
    await db.response.update({ where: { id: response.id }, data: { designPrinciple: TWO_MB } });
    const loaded = await loadResponseWithView(db, viewer, response.id);
    expect(loaded).not.toBeNull();
    const { view, clipped } = clipResponseView(loaded!.view);
    expect(clipped.designPrinciple).toBe(TWO_MB.length);
    expect(view.texts.designPrinciple).toHaveLength(PAGE_TEXT_LIMIT);
    const shown = [view.texts.raw, view.texts.nodeSelection, view.texts.designPrinciple, view.texts.workflow, view.original.prettyJson, view.original.yaml];
    for (const text of shown) expect((text ?? "").length).toBeLessThanOrEqual(PAGE_TEXT_LIMIT);
    expect(fullFieldText(loaded!.view, "designPrinciple")).toBe(TWO_MB);
    // The second request is served from the cache: the same view object, not a re-scored one.
    const again = await loadResponseWithView(db, viewer, response.id);
    expect(again!.view).toBe(loaded!.view);
  });
});
