import "server-only";
// Seeds the paper's Table 1 as "published" results. Idempotent: figures are upserted by (source, model, domain).
import { PUBLISHED_SOURCE, publishedCells } from "@/lib/published/table1";
import type { Database } from "./db";

export async function seedPublishedResults(db: Database): Promise<number> {
  const rows = publishedCells().map((cell) => ({ source: PUBLISHED_SOURCE, ...cell }));
  const existing = await db.publishedResult.count({ where: { source: PUBLISHED_SOURCE } });
  if (existing === rows.length) return 0;
  await db.$transaction(
    rows.map((row) =>
      db.publishedResult.upsert({
        where: { source_modelName_domain: { source: row.source, modelName: row.modelName, domain: row.domain } },
        create: row,
        update: row,
      }),
    ),
  );
  return rows.length;
}
