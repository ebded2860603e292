// `npm run db:copy -- --from URL --to URL [--json]`: copies every table of one database into an empty other one, e.g.
// the SQLite file into PostgreSQL when a lab moves to several app instances and workers. Both are migrated first.
// Exit codes: 0 copied, 1 refused (target not empty, unfinished jobs), 2 bad arguments, 3 a database unusable.
import { createDatabaseClient } from "@/lib/server/db";
import { copyDatabase } from "@/lib/server/database-copy/copy-database";
import { displayUrl } from "./lib/migrate-postgres";
import { commandLineEnv, parseCommandLine, prepareDatabase, runCommandLine, usageError } from "./lib/cli";

const USAGE = `Usage: npm run db:copy -- --from URL --to URL [--json]

Copies every table of the --from database into the --to database, which must be empty (a new SQLite path or an
empty PostgreSQL database; both are created and migrated as needed). URLs are file:PATH or postgres://…
The copy is one transaction on the target: if anything fails, the target is left as it was.
Unfinished jobs in the source are refused: let them finish or cancel them first. Stop the app (and workers) on the
source while copying. Endpoint keys and Dify passwords are copied encrypted: run the app on the target with the same
C2W_SECRETS_KEY (or the same data/.secrets-key file).
Options:
  --json   print {"tables":[{"table","rows"}],"rows"} on stdout instead of a summary line`;

async function main(): Promise<number> {
  const parsed = parseCommandLine({ options: { from: { type: "string" }, to: { type: "string" }, json: { type: "boolean", default: false }, help: { type: "boolean", short: "h" } }, allowPositionals: false }, USAGE);
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  if (!values.from || !values.to) return usageError("--from and --to are both required", USAGE);
  const from = commandLineEnv(values.from).DATABASE_URL;
  const to = commandLineEnv(values.to).DATABASE_URL;
  if (from === to) return usageError("--from and --to name the same database", USAGE);
  await prepareDatabase(from);
  await prepareDatabase(to);
  const source = createDatabaseClient(from);
  const target = createDatabaseClient(to);
  try {
    const started = performance.now();
    const result = await copyDatabase(source, target, {
      onTable: (copy, index, count) => process.stderr.write(`[${index + 1}/${count}] ${copy.table}: ${copy.rows} rows\n`),
    });
    if (!result.ok) {
      console.error(`error: nothing copied. ${result.message}`);
      return 1;
    }
    if (values.json) console.log(JSON.stringify({ tables: result.tables, rows: result.rows }));
    else console.log(`copied ${result.rows} rows in ${result.tables.length} tables from ${displayUrl(from)} to ${displayUrl(to)} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } finally {
    await Promise.all([source.$disconnect(), target.$disconnect()]);
  }
}

runCommandLine(main);
