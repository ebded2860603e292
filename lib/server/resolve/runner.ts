import "server-only";
// The resolve stage against a user's Dify: each valid record's workflow is imported (the pass stage's step 1_5),
// published and given an API key; each test case uploads its files, runs the workflow in blocking mode, applies the
// file checks and asks the resolve judge. Created apps are deleted afterwards unless kept. Failures are recorded per
// item or test with a reason, never thrown.
//
// Public API: resolveRecords(records, options) -> ResolveRun { records, notes, judgeCalls }

import { turnKey } from "@/lib/benchmark/dataset";
import type { RunRecord } from "@/lib/benchmark/runs";
import type { TurnSpec } from "@/lib/benchmark/turn";
import { officialOutputText, resolveJudgeItem, type TestPosition } from "@/lib/judge";
import { importFailureRecord } from "@/lib/resolve/official";
import { buildDifyDsl, difyAppName } from "@/lib/workflow/dify-dsl";
import { toDifyYaml } from "@/lib/workflow/dify-yaml";
import { scoreResponse } from "@/lib/workflow/score";
import type { DifyConsole, DifyDeps } from "../dify/client";
import { judgeItems, type ChatClient } from "../llm";
import { executeCase, retryingTransient } from "./execute-case";

export interface ResolveOptions {
  dify: DifyConsole;
  /** The service API base, e.g. http://localhost/v1. */
  serviceBase: string;
  turns: ReadonlyMap<string, TurnSpec>;
  /** dataset/check_resolve_stage.json: "<Task>_<round>" -> {output: ".ext"}. */
  fileChecks: Readonly<Record<string, Readonly<Record<string, string>>>>;
  queries: ReadonlyMap<string, readonly string[]>;
  caseFilesDir: string;
  judge: ChatClient;
  /** The resolve judge's system prompt (officialSystemPrompt of evaluation_resolve_system.txt). */
  judgeSystemPrompt: string;
  /** The `user` sent with uploads and runs. */
  user: string;
  runTimeoutMs?: number;
  keepApps?: boolean;
  deps?: DifyDeps;
  /** Backoff base of the retries on a 429/5xx from the service API (the server's Retry-After wins when longer). */
  serviceBackoffMs?: number;
  onNote?: (note: string) => void;
}

export interface ResolveRun {
  records: RunRecord[];
  /** Why items or tests failed outside the official checks (Dify errors, missing files, judge errors). */
  notes: string[];
  judgeCalls: number;
}

/** Keys are shown only by their last characters: the file is shared, the key is a credential. */
const maskKey = (token: string) => `app-…${token.slice(-4)}`;

export async function resolveRecords(input: readonly RunRecord[], options: ResolveOptions): Promise<ResolveRun> {
  const notes: string[] = [];
  const note = (text: string) => {
    notes.push(text);
    options.onNote?.(text);
  };
  let judgeCalls = 0;
  const records: RunRecord[] = [];
  for (const original of input) {
    const record: RunRecord = { ...original };
    records.push(record);
    if (!record.valid) continue;
    const key = turnKey(record.task, record.round);
    const turn = options.turns.get(key);
    if (!turn) {
      note(`${key}: not in the benchmark's check files; skipped`);
      continue;
    }
    const conversion = scoreResponse({ nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow }, turn).conversion;
    if (!conversion) {
      note(`${key}: the workflow does not convert to a Dify DSL; its tests fail`);
      for (const position of [1, 2, 3] as const) record[`test${position}`] = false;
      continue;
    }
    // Step 1_5: an import failure makes the item invalid; publish and key failures leave it valid with no key.
    const imported = await options.dify.importDsl(toDifyYaml(buildDifyDsl(conversion, difyAppName(record.task, record.round))));
    if (!imported.ok) {
      const step = imported.error.step === "confirm" ? "confirm" : "import";
      const outcome = importFailureRecord({ step, status: imported.error.status });
      note(`${key}: Dify ${step} failed (${imported.error.message})${outcome === "step_1_5" ? "" : "; the item stays valid and its tests fail"}`);
      if (outcome === "step_1_5") {
        record.valid = false;
        record.fail_step = "step_1_5";
      } else {
        record.api_key = "Other-Error";
        for (const position of [1, 2, 3] as const) record[`test${position}`] = false;
      }
      continue;
    }
    const appId = imported.value.appId;
    try {
      const published = await options.dify.publish(appId);
      const apiKey = published.ok ? await options.dify.createApiKey(appId) : published;
      if (!apiKey.ok) {
        note(`${key}: ${apiKey.error.step} failed (${apiKey.error.message}); its tests fail`);
        record.api_key = "Other-Error";
        for (const position of [1, 2, 3] as const) record[`test${position}`] = false;
        continue;
      }
      record.api_key = maskKey(apiKey.value);
      for (const position of [1, 2, 3] as const) {
        const test = turn.tests[position - 1];
        if (!test) continue;
        const outcome = await runTest(record, position, test.inputs, test.groundTruth, apiKey.value, turn, options, note);
        judgeCalls += outcome.judgeCalls;
      }
    } finally {
      if (!options.keepApps) {
        const deleted = await options.dify.deleteApp(appId);
        if (!deleted.ok) note(`${key}: could not delete app ${appId} (${deleted.error.message})`);
      }
    }
  }
  return { records, notes, judgeCalls };
}

async function runTest(
  record: RunRecord,
  position: TestPosition,
  test: TurnSpec["tests"][number]["inputs"],
  groundTruth: string | null,
  apiKey: string,
  turn: TurnSpec,
  options: ResolveOptions,
  note: (text: string) => void,
): Promise<{ judgeCalls: number }> {
  const label = `${turnKey(record.task, record.round)} test${position}`;
  const fail = (why: string) => {
    record[`test${position}`] = false;
    note(`${label}: ${why}`);
    return { judgeCalls: 0 };
  };
  const checks = options.fileChecks[turnKey(record.task, record.round)] ?? {};
  const execution = await executeCase(test, checks, {
    serviceBase: options.serviceBase,
    apiKey,
    caseFilesDir: options.caseFilesDir,
    user: options.user,
    ...(options.runTimeoutMs ? { timeoutMs: options.runTimeoutMs } : {}),
    ...(options.deps ? { deps: options.deps } : {}),
    call: retryingTransient({ tries: 4, backoffMs: options.serviceBackoffMs ?? 2_000 }),
  });
  if (execution.kind === "missing-file") return fail(execution.message);
  for (const text of execution.notes) note(`${label}: ${text}`);
  if (execution.kind === "run-failed") return fail(`run failed (${execution.error.message})`);
  if (execution.failure) return fail(execution.failure);
  record[`test${position}`] = true;
  if (Object.keys(execution.shown).length === 0) return { judgeCalls: 0 };
  const outputText = officialOutputText(execution.shown);
  const item = resolveJudgeItem(
    { model: "resolve", task: record.task, round: record.round, test: position, queries: options.queries.get(record.task) ?? [], inputs: test, outputs: outputText, groundTruth, recorded: null },
    options.judgeSystemPrompt,
  );
  const judged = (await judgeItems([item], { client: options.judge })).results[0];
  record[`llm_output_test${position}`] = outputText;
  const reason = judged?.samples[0]?.reason;
  if (!judged || judged.verdict === null || typeof reason !== "string") {
    record[`test${position}`] = false;
    note(`${label}: the judge gave no verdict (${judged?.error?.message ?? "no reply"})`);
    return { judgeCalls: 1 };
  }
  record[`test${position}`] = judged.verdict;
  record[`llm_evaluate_reason_test${position}`] = reason;
  return { judgeCalls: 1 };
}
