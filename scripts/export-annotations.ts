// `npm run export:annotations -- [--queue <id>] [--format csv|json] [--out <file>] [--database <url>]`
// Writes every review vote (of one queue, or all) with the judge verdict it concerns and that verdict's input and
// prompt fingerprints, the same rows as the Review pages' export. Exit codes: 0 written, 1 no such queue, 2 bad arguments.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { annotationsCsv, annotationsJson, EXPORT_FORMATS, type ExportFormat } from "@/lib/review/export";
import { listAnnotationRows } from "@/lib/server/data/review";
import { createDatabaseClient } from "@/lib/server/db";
import { loadServerEnv } from "@/lib/server/env";
import type { SessionUser } from "@/lib/server/session";

const USAGE = `Usage: npm run export:annotations -- [options]
  --queue <id>        one queue (default: every queue)
  --format csv|json   default csv
  --out <file>        write to a file instead of stdout
  --database <url>    database URL (default: DATABASE_URL or file:./data/studio.db)`;

// Whoever runs the CLI already holds the database file; it reads as an admin would.
const COMMAND_LINE: SessionUser = { id: "command-line", email: "command-line", name: "command line", role: "admin" };

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: { queue: { type: "string" }, format: { type: "string" }, out: { type: "string" }, database: { type: "string" }, help: { type: "boolean", short: "h" } },
    }));
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : error}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const format = (values.format ?? "csv") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) {
    console.error(`error: --format must be one of ${EXPORT_FORMATS.join(", ")}\n\n${USAGE}`);
    return 2;
  }
  const env = loadServerEnv({ ...process.env, ...(values.database ? { DATABASE_URL: values.database } : {}) });
  const db = createDatabaseClient(env.DATABASE_URL);
  try {
    const exported = await listAnnotationRows(db, COMMAND_LINE, values.queue ?? null);
    if (!exported) {
      console.error(`error: no review queue with id ${values.queue}`);
      return 1;
    }
    const body = format === "csv" ? annotationsCsv(exported.rows) : annotationsJson(exported.rows, new Date());
    if (values.out) {
      writeFileSync(values.out, body);
      console.error(`wrote ${exported.rows.length} annotation${exported.rows.length === 1 ? "" : "s"} (${exported.scope}) to ${values.out}`);
    } else {
      process.stdout.write(body);
    }
    return 0;
  } finally {
    await db.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exit(1);
  },
);
