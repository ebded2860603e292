// `npm run -s pairwise -- --candidate RUN --baseline RUN --endpoint URL --model NAME [--policy tie|rerun] [--json]`:
// asks an OpenAI-compatible judge which of two stored runs' workflows better satisfies each shared turn's
// instruction, in both orders (§8), and prints the win rate, the pairwise norm and the inconsistency rate (warning
// above 0.10). Exit codes: 0 judged, 1 run not found or no turn judged, 2 bad arguments.
import { createChatClient } from "@/lib/server/llm";
import { findRunByIdOrLabel } from "@/lib/server/grading";
import { judgeRunsPairwise } from "@/lib/server/pairwise";
import { commandLineEnv, OUTPUT_OPTIONS, parseCommandLine, runCommandLine, usageError, withDatabase } from "./lib/cli";
import { COMMAND_LINE, RUN_PAIR_OPTIONS } from "./lib/graded-run";
import { printData } from "./lib/stdout";

const USAGE = `Usage: npm run -s pairwise -- --candidate <run> --baseline <run> --endpoint <url> --model <name> [options]
  --candidate <run>      stored run id or label
  --baseline <run>       stored run id or label, same benchmark
  --endpoint <url>       base URL of an OpenAI-compatible API, e.g. http://127.0.0.1:8000/v1
  --model <name>         the judge model
  --api-key-env <VAR>    read the API key from this environment variable (local servers need none)
  --policy tie|rerun     an inconsistent turn counts as a tie (default) or is asked once more
  --json                 print one JSON document on stdout
  --database <url>       database URL (default: DATABASE_URL or file:./data/studio.db)`;

async function main(): Promise<number> {
  const parsed = parseCommandLine(
    {
      options: { ...RUN_PAIR_OPTIONS, endpoint: { type: "string" }, model: { type: "string" }, "api-key-env": { type: "string" }, policy: { type: "string" }, ...OUTPUT_OPTIONS },
    },
    USAGE,
    "stderr",
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  for (const name of ["candidate", "baseline", "endpoint", "model"] as const) if (!values[name]) return usageError(`--${name} is required`, USAGE);
  const policy = values.policy ?? "tie";
  if (policy !== "tie" && policy !== "rerun") return usageError(`--policy must be tie or rerun, got ${JSON.stringify(policy)}`, USAGE);
  const keyVariable = values["api-key-env"];
  const apiKey = keyVariable ? process.env[keyVariable] : undefined;
  if (keyVariable && !apiKey) return usageError(`the environment variable ${keyVariable} is empty`, USAGE);
  const client = createChatClient({ baseURL: values.endpoint!, model: values.model!, apiKey: apiKey ?? null });
  return withDatabase(commandLineEnv(values.database).DATABASE_URL, async (db) => {
    const candidate = await findRunByIdOrLabel(db, COMMAND_LINE, values.candidate!);
    const baseline = await findRunByIdOrLabel(db, COMMAND_LINE, values.baseline!);
    if (!candidate.ok || !baseline.ok) {
      console.error(`error: ${[...(candidate.ok ? [] : candidate.issues), ...(baseline.ok ? [] : baseline.issues)].join("; ")}`);
      return 1;
    }
    const run = await judgeRunsPairwise(db, COMMAND_LINE, candidate.value.id, baseline.value.id, client, policy);
    for (const failure of run.failed) console.error(`warning: ${failure.key} (${failure.order}): ${failure.problem}`);
    const { summary } = run;
    if (values.json) {
      await printData(JSON.stringify({ candidate: candidate.value, baseline: baseline.value, judge: run.judge, policy, ...summary, failed: run.failed }));
    } else {
      const rate = summary.inconsistencyRate === null ? "—" : `${(summary.inconsistencyRate * 100).toFixed(1)}%`;
      console.log(`${candidate.value.label} vs ${baseline.value.label}, judged by ${run.judge.model}: ${summary.counts.wins} wins, ${summary.counts.losses} losses, ${summary.counts.ties} ties`);
      console.log(`pairwise norm (win rate, ties half) ${summary.winRate?.toFixed(3) ?? "—"}; inconsistent across orders ${summary.inconsistent} of ${summary.judged} (${rate})${summary.warning ? " — WARNING: above 10%, position bias likely" : ""}`);
    }
    return summary.judged > 0 ? 0 : 1;
  });
}

runCommandLine(main);
