// `npm run export:annotations -- [--queue <id>] [--format csv|json] [--out <file>] [--database <url>]`
// Writes every review vote (of one queue, or all) with the judge verdict it concerns and that verdict's input and
// prompt fingerprints, the same rows as the Review pages' export. Exit codes: 0 written, 1 no such queue, 2 bad arguments.
import { writeFileSync } from "node:fs";
import { annotationsCsv, annotationsJson, EXPORT_FORMATS, type ExportFormat } from "@/lib/review/export";
import { listAnnotationRows } from "@/lib/server/data/review";
import type { SessionUser } from "@/lib/server/session";
import { commandLineEnv, parseCommandLine, runCommandLine, usageError, withDatabase } from "./lib/cli";

const USAGE = `Usage: npm run export:annotations -- [options]
  --queue <id>        one queue (default: every queue)
  --format csv|json   default csv
  --out <file>        write to a file instead of stdout
  --database <url>    database URL (default: DATABASE_URL or file:./data/studio.db)`;

// Whoever runs the CLI already holds the database file; it reads as an admin would.
const COMMAND_LINE: SessionUser = { id: "command-line", email: "command-line", name: "command line", role: "admin" };

async function main(): Promise<number> {
  const parsed = parseCommandLine(
    { options: { queue: { type: "string" }, format: { type: "string" }, out: { type: "string" }, database: { type: "string" }, help: { type: "boolean", short: "h" } } },
    USAGE,
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  const format = (values.format ?? "csv") as ExportFormat;
  if (!EXPORT_FORMATS.includes(format)) return usageError(`--format must be one of ${EXPORT_FORMATS.join(", ")}`, USAGE);
  const env = commandLineEnv(values.database);
  return withDatabase(env.DATABASE_URL, async (db) => {
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
  });
}

runCommandLine(main);
