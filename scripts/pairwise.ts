// `npm run -s pairwise -- --candidate RUN --baseline RUN --endpoint URL --model NAME [--policy tie|rerun] [--seed N] [--json]`:
// asks an OpenAI-compatible judge which of two stored runs' workflows better answers each shared turn's conversation,
// in both orders with the first drawn from the seed (§8), and prints the win rate, the inconsistency rate (warning
// above 0.10) and the length check. Nothing is stored: the Pairwise page's jobs store theirs. Exit codes: 0 judged,
// 1 run not found or no turn judged, 2 bad arguments.
import { randomInt } from "node:crypto";
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
  --seed <n>             seed of the per-turn first order (default: drawn and printed, so a run can be repeated)
  --json                 print one JSON document on stdout
  --database <url>       database URL (default: DATABASE_URL or file:./data/studio.db)`;

async function main(): Promise<number> {
  const parsed = parseCommandLine(
    {
      options: { ...RUN_PAIR_OPTIONS, endpoint: { type: "string" }, model: { type: "string" }, "api-key-env": { type: "string" }, policy: { type: "string" }, seed: { type: "string" }, ...OUTPUT_OPTIONS },
    },
    USAGE,
    "stderr",
  );
  if (typeof parsed === "number") return parsed;
  const { values } = parsed;
  for (const name of ["candidate", "baseline", "endpoint", "model"] as const) if (!values[name]) return usageError(`--${name} is required`, USAGE);
  const policy = values.policy ?? "tie";
  if (policy !== "tie" && policy !== "rerun") return usageError(`--policy must be tie or rerun, got ${JSON.stringify(policy)}`, USAGE);
  const seed = values.seed === undefined ? randomInt(0, 2 ** 31 - 1) : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 2 ** 31 - 1) return usageError(`--seed must be a whole number from 0 to 2147483647, got ${JSON.stringify(values.seed)}`, USAGE);
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
    const run = await judgeRunsPairwise(db, COMMAND_LINE, candidate.value.id, baseline.value.id, client, { policy, seed });
    for (const failure of run.failed) console.error(`warning: ${failure.key}: ${failure.problem}`);
    const { report } = run;
    if (values.json) {
      await printData(JSON.stringify({ candidate: candidate.value, baseline: baseline.value, judge: run.judge, policy, seed, ...report, judgements: run.judgements, failed: run.failed }));
    } else {
      const rate = report.inconsistencyRate === null ? "—" : `${(report.inconsistencyRate * 100).toFixed(1)}%`;
      console.log(`${candidate.value.label} vs ${baseline.value.label}, judged by ${run.judge.model} (order seed ${seed}): ${report.counts.wins} wins, ${report.counts.losses} losses, ${report.counts.ties} ties`);
      console.log(`pairwise norm (win rate, ties half) ${report.winRate?.toFixed(3) ?? "—"}; inconsistent across orders ${report.inconsistent} of ${report.judged} (${rate})${report.warning ? " — WARNING: above 10%, position bias likely" : ""}`);
      const share = report.length.share === null ? "—" : `${(report.length.share * 100).toFixed(1)}%`;
      console.log(`length check: ${report.length.toLonger} of ${report.length.decided} decided comparisons went to the longer answer (${share})${report.length.flagged ? ` — FLAGGED: above ${report.length.threshold * 100}%, verbosity bias likely` : ""}`);
    }
    const summary = report;
    return summary.judged > 0 ? 0 : 1;
  });
}

runCommandLine(main);
