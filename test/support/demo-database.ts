// An integration test's usual start: the database emptied, the demo benchmark and runs imported, the runs' ids by
// label. Throws with the importer's issues when the demo data does not import, so no test runs on a half-seeded file.
import { seedDemoData } from "@/lib/server/demo-data";
import type { Database } from "@/lib/server/db";
import { emptyDatabase } from "./database";

export interface DemoDatabase {
  /** Every run's id by its label ("demo_alpha.json", ...). */
  runIds: Record<string, string>;
  /** The id of the run with this label; throws when there is none. */
  runId(label: string): string;
}

export async function freshDemoDatabase(db: Database): Promise<DemoDatabase> {
  await emptyDatabase(db);
  const outcome = await seedDemoData(db);
  if (!outcome.ok) throw new Error(outcome.issues.map((issue) => issue.message).join("\n"));
  const runIds: Record<string, string> = {};
  for (const run of await db.run.findMany({ select: { id: true, label: true } })) runIds[run.label] = run.id;
  return {
    runIds,
    runId(label) {
      const id = runIds[label];
      if (id === undefined) throw new Error(`no demo run labelled ${label}`);
      return id;
    },
  };
}
