// `npm run -s grade -- --input FILE [--json]`: grades a JSON list of cases by the scoring guide's algorithm (§5.1).
// `npm run -s grade -- --rubric FILE --run RUN [--benchmark DIR] [--json]`: grades a stored run (id or label) or a
// run file with a rubric. With --json stdout carries one JSON document. Exit codes: 0 done, 1 not found, 2 bad input.
import { readFileSync } from "node:fs";
import { gradeCases, parseGradeCases, type ContractResult } from "@/lib/grading/cases";
import { parseCommandLine, runCommandLine, usageError } from "./lib/cli";

const USAGE = `Usage: npm run -s grade -- --input <file> [--json]
       npm run -s grade -- --rubric <file> --run <run> [--benchmark <dir>] [--store] [--json] [--database <url>]
  --input <file>      a JSON list of cases {id, hard_gates, pass_threshold?, sample_count?, criteria: [...]}
  --rubric <file>     a rubric YAML file (see rubrics/)
  --run <run>         a stored run's id or label, or a run file (with --benchmark)
  --benchmark <dir>   the benchmark directory a run file belongs to
  --store             save the grading results in the database (stored runs only)
  --json              print one JSON document on stdout
  --database <url>    database URL (default: DATABASE_URL or file:./data/studio.db)`;

function printTable(results: readonly ContractResult[]): void {
  console.log(["id", "grade", "passed", "weighted", "gate failures", "floor failures"].join("\t"));
  for (const result of results) {
    console.log([result.id, result.grade, result.passed ? "yes" : "no", result.weighted_100.toFixed(2), result.gate_failures.join(",") || "-", result.floor_failures.join(",") || "-"].join("\t"));
  }
}

function gradeInputFile(file: string, json: boolean): number {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    console.error(`error: cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const parsed = parseGradeCases(data);
  const graded = parsed.ok ? gradeCases(parsed.value) : parsed;
  if (!graded.ok) {
    for (const found of graded.issues) console.error(`error: ${file}: ${found.message}`);
    return 2;
  }
  if (json) console.log(JSON.stringify({ results: graded.value.results }));
  else printTable(graded.value.results);
  return 0;
}

async function main(): Promise<number> {
  const parsed = parseCommandLine(
    {
      options: {
        input: { type: "string" },
        rubric: { type: "string" },
        run: { type: "string" },
        benchmark: { type: "string" },
        store: { type: "boolean" },
        json: { type: "boolean" },
        database: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    },
    USAGE,
    "stderr",
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  if (values.input !== undefined) {
    if (values.rubric !== undefined || values.run !== undefined) return usageError("--input cannot be combined with --rubric or --run", USAGE);
    return gradeInputFile(values.input, values.json ?? false);
  }
  return usageError("give --input <file>, or --rubric <file> with --run <run>", USAGE);
}

runCommandLine(main);
