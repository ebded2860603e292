// `npm run export -- <table> [options]`: prints one of the app's tables as JSON or CSV on stdout (and nothing else;
// messages go to stderr). Exit codes: 0 printed, 1 nothing to export (unknown benchmark, model or task), 2 bad arguments.
// `npm run export -- bundle --run <id> --out <file>` writes a run bundle (a zip) to the file instead.
import { writeFile } from "node:fs/promises";
import { CATEGORY_COLUMNS, FAIL_STEP_COLUMNS, failStepDistribution, failureCategories } from "@/lib/leaderboard/charts";
import { compareRuns, DISCORDANT_COLUMNS } from "@/lib/leaderboard/compare";
import { leaderboardColumns, leaderboardExportRows, render, type Column, type ExportFormat } from "@/lib/leaderboard/export";
import { TASK_COLUMNS, taskExportRow } from "@/lib/leaderboard/tables";
import { matrixExportRows, MATRIX_COLUMNS, MODEL_TURN_COLUMNS } from "@/lib/leaderboard/turns";
import type { Database } from "@/lib/server/db";
import { exportRunBundle } from "@/lib/server/bundles/export-bundle";
import { getModelOverview, getModelTurns, getPairTurns, getTaskMatrix, listTasks } from "@/lib/server/data/drilldown";
import { getExportRates, getFailureCounts, getMeasuredCounts, selectBenchmark } from "@/lib/server/data/leaderboard";
import type { SessionUser } from "@/lib/server/session";
import { commandLineEnv, parseCommandLine, runCommandLine, usageError, withDatabase } from "./lib/cli";

const USAGE = `Usage: npm run export -- <table> [options]
Tables:
  leaderboard   pass and resolve counts per model: overall, per domain and per round (rows {model, scope, key,
                passNum, passDen, resolveNum, resolveDen}); --source measured|published (default measured);
                published rows add passPercent and resolvePercent, the figures exactly as printed (their
                counts are derived from those percentages, for intervals)
  fail-steps    turns per model and pass-stage fail step (step_1_1..step_1_4)
  categories    failed turns per model by the category of their first diagnostic
  tasks         every task with its pooled pass and resolve counts
  task          one task's turns × runs matrix (--task <name>)
  model         one model's turns with verdicts (--model <name> [--domain <name>] [--round <n>])
  compare       turns where exactly one of two models passes (--a <model> --b <model>)
  bundle        a run bundle, written to a file (--run <run id> --out <file.zip>): what produced the run,
                with a manifest of sha256 hashes; npm run import -- --bundle checks and imports it
Options:
  --format json|csv      output format (default json)
  --benchmark <name>     benchmark name or id (default: the default benchmark, as on the leaderboard)
  --database <url>       database URL (default: DATABASE_URL or file:./data/studio.db)
  --all-rounds           leaderboard: also print round 4 (the official statistics print rounds 1-3 only)`;

/** The command line reads as a local operator with read access; it never writes. */
const CLI_ACTOR: SessionUser = { id: "cli", email: "cli@localhost", name: "command line", role: "viewer" };

class UsageError extends Error {}
class NotFound extends Error {}

/** Resolves once the text is handed to the OS, so exiting right after cannot cut a piped output short. */
function print<Row>(columns: readonly Column<Row>[], rows: readonly Row[], format: ExportFormat): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(render(columns, rows, format), (error) => (error ? reject(error) : resolve())));
}

async function benchmarkId(db: Database, requested: string | undefined): Promise<string> {
  const selection = await selectBenchmark(db, CLI_ACTOR, requested);
  if (!selection.benchmark) throw new NotFound("no benchmark has been imported");
  if (requested && selection.benchmark.id !== requested && selection.benchmark.name.toLowerCase() !== requested.toLowerCase()) {
    throw new NotFound(`no benchmark named "${requested}" (imported: ${selection.choices.map((choice) => choice.name).join(", ")})`);
  }
  return selection.benchmark.id;
}

async function firstRun(db: Database, benchmark: string, model: string): Promise<string> {
  const overview = await getModelOverview(db, CLI_ACTOR, benchmark, model);
  const run = overview?.runs[0];
  if (!run) throw new NotFound(`model "${model}" has no run on this benchmark`);
  return run.id;
}

async function exportTable(db: Database, table: string, values: Record<string, string | boolean | undefined>, format: ExportFormat): Promise<void> {
  const requested = typeof values.benchmark === "string" ? values.benchmark : undefined;
  switch (table) {
    case "leaderboard": {
      const source = values.source ?? "measured";
      if (source !== "measured" && source !== "published") throw new UsageError("--source must be measured or published");
      if (source === "measured") await benchmarkId(db, requested);
      const { rows } = await getExportRates(db, CLI_ACTOR, source, requested ?? null);
      return print(leaderboardColumns(source), leaderboardExportRows(rows, { allRounds: values["all-rounds"] === true }), format);
    }
    case "fail-steps":
    case "categories": {
      const id = await benchmarkId(db, requested);
      const measured = await getMeasuredCounts(db, CLI_ACTOR, id);
      const counts = await getFailureCounts(db, CLI_ACTOR, measured.runs);
      if (table === "fail-steps") return print(FAIL_STEP_COLUMNS, failStepDistribution(counts.steps, measured.models), format);
      return print(CATEGORY_COLUMNS, failureCategories(counts.categories, measured.models), format);
    }
    case "tasks": {
      const tasks = await listTasks(db, CLI_ACTOR, await benchmarkId(db, requested));
      return print(TASK_COLUMNS, tasks.map(taskExportRow), format);
    }
    case "task": {
      if (typeof values.task !== "string") throw new UsageError("task needs --task <name>");
      const detail = await getTaskMatrix(db, CLI_ACTOR, await benchmarkId(db, requested), values.task);
      if (!detail) throw new NotFound(`no task named "${values.task}" in this benchmark`);
      return print(MATRIX_COLUMNS, matrixExportRows(detail.matrix), format);
    }
    case "model": {
      if (typeof values.model !== "string") throw new UsageError("model needs --model <name>");
      const round = typeof values.round === "string" ? Number(values.round) : null;
      if (round !== null && !(Number.isInteger(round) && round > 0)) throw new UsageError("--round must be a positive whole number");
      const id = await benchmarkId(db, requested);
      await firstRun(db, id, values.model);
      const rows = await getModelTurns(db, CLI_ACTOR, id, values.model, { domain: typeof values.domain === "string" ? values.domain : null, round });
      return print(MODEL_TURN_COLUMNS, rows, format);
    }
    case "bundle": {
      if (typeof values.run !== "string" || typeof values.out !== "string") throw new UsageError("bundle needs --run <run id> and --out <file>");
      const bundle = await exportRunBundle(db, CLI_ACTOR, values.run);
      if (!bundle) throw new NotFound(`no run with id "${values.run}"`);
      await writeFile(values.out, bundle.bytes);
      console.error(`wrote ${values.out} (${bundle.bytes.byteLength} bytes)`);
      return;
    }
    case "compare": {
      if (typeof values.a !== "string" || typeof values.b !== "string") throw new UsageError("compare needs --a <model> and --b <model>");
      const id = await benchmarkId(db, requested);
      const [a, b] = [await getPairTurns(db, CLI_ACTOR, await firstRun(db, id, values.a)), await getPairTurns(db, CLI_ACTOR, await firstRun(db, id, values.b))];
      const compared = compareRuns(a, b);
      if (!compared.ok) throw new NotFound(compared.issues.map((found) => found.message).join("; "));
      return print(DISCORDANT_COLUMNS, compared.value.discordant, format);
    }
    default:
      throw new UsageError(`unknown table "${table}"`);
  }
}

async function main(): Promise<number> {
  const parsed = parseCommandLine(
    {
      allowPositionals: true,
      options: {
        source: { type: "string" },
        format: { type: "string" },
        benchmark: { type: "string" },
        database: { type: "string" },
        task: { type: "string" },
        model: { type: "string" },
        domain: { type: "string" },
        round: { type: "string" },
        a: { type: "string" },
        b: { type: "string" },
        run: { type: "string" },
        out: { type: "string" },
        "all-rounds": { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    },
    USAGE,
    "stderr",
  );
  if (typeof parsed === "number") return parsed;
  const { values, positionals } = parsed;
  const format = values.format ?? "json";
  if (positionals.length !== 1 || (format !== "json" && format !== "csv")) {
    return usageError(positionals.length !== 1 ? "name one table" : "--format must be json or csv", USAGE);
  }
  const env = commandLineEnv(values.database);
  return withDatabase(env.DATABASE_URL, async (db) => {
    try {
      await exportTable(db, positionals[0]!, values, format);
      return 0;
    } catch (error) {
      if (error instanceof UsageError) return usageError(error.message, USAGE);
      if (error instanceof NotFound) {
        console.error(`error: ${error.message}`);
        return 1;
      }
      throw error;
    }
  });
}

runCommandLine(main);
