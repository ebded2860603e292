import "server-only";
// The resolve stage of one turn on a Dify, the one implementation the CLI (`npm run resolve`) and the resolve job
// share: its workflow converted to the DSL, imported (pass step 1_5), published and given an API key; each test case
// executed (executeCase: uploads, blocking run, file checks) and, when it has text outputs, put to the resolve judge
// panel; the app deleted afterwards unless kept. Callers decide what a Dify setup failure means (the job retries a
// transient one; both end up recording the official outcome) and store the result their way. Never throws.
import type { TurnSpec } from "@/lib/benchmark/turn";
import { resolveJudgeItem, type TestPosition } from "@/lib/judge/items";
import { officialOutputText, type JudgeTestInput } from "@/lib/judge/protocol";
import { caseVerdictAfterChecks } from "@/lib/resolve/case-verdict";
import type { OutputFileSummary } from "@/lib/resolve/official";
import { buildDifyDsl, difyAppName, type DifyDsl } from "@/lib/workflow/dify-dsl";
import { toDifyYaml } from "@/lib/workflow/dify-yaml";
import { scoreResponse } from "@/lib/workflow/score";
import type { DifyConsole, DifyDeps, DifyError, DifyResult } from "../dify/client";
import { executeCase, type CaseContext } from "./execute-case";
import { addJudgeUsage, emptyJudgeUsage, judgeResolveCase, type JudgeSampleRow, type JudgeUsage, type ResolveJudgePanel } from "./judge-panel";

/** The console session a turn uses: the current one, and a fresh sign-in when Dify answers 401 to the import. */
export interface ConsoleSessions {
  current(): Promise<DifyResult<DifyConsole>>;
  renew(): Promise<DifyResult<DifyConsole>>;
}

export interface TurnToResolve {
  modelName: string;
  spec: TurnSpec;
  response: { nodeSelection: string | null; designPrinciple: string | null; workflow: string | null };
  /** The task's instructions, round by round (the judge is shown those up to this round). */
  queries: readonly string[];
  /** Written as the app's description, so a later attempt can find and delete what an interrupted one left. */
  appDescription?: string;
  /** Delete apps already carrying that description before importing (a retried job item). */
  removeLeftovers?: boolean;
}

export interface ResolveTurnOptions {
  sessions: ConsoleSessions;
  serviceBase: string;
  caseFilesDir: string;
  /** The `user` sent with uploads and runs. */
  user: string;
  runTimeoutMs?: number;
  keepApps: boolean;
  deps?: DifyDeps;
  /** Wraps each service call (retries on 429/5xx). */
  call: NonNullable<CaseContext["call"]>;
  /** Null: cases with text outputs stay not judged. */
  judge: ResolveJudgePanel | null;
  /** Refuses the turn before anything is imported, e.g. when the workspace lacks what its DSL needs. */
  checkReady?: (dsl: DifyDsl) => Promise<string | null>;
  signal?: AbortSignal;
}

/** One executed case as both callers store it. */
export interface ExecutedCase {
  position: number;
  /** null: not judged. */
  verdict: boolean | null;
  /** The text outputs shown (or to be shown) to the judge, in the official rendering. */
  outputs: string | null;
  fileCheck: "pass" | "fail" | null;
  files: OutputFileSummary[];
  /** Why the case failed or is not judged, in words. */
  error: string | null;
  difyRunId: string | null;
  elapsedMs: number | null;
  /** The judge's reason when a judge decided the case. */
  judgeReason: string | null;
}

export type TurnResolution =
  | { kind: "no-dsl" }
  | { kind: "not-ready"; message: string }
  | { kind: "setup-failed"; error: DifyError }
  | { kind: "cancelled" }
  | { kind: "executed"; apiKey: string; cases: ExecutedCase[]; samples: (JudgeSampleRow & { casePosition: number })[]; usage: JudgeUsage; notes: string[] };

/** The case inputs as the official judge shows them (files are left out of its input block). */
const judgeInputs = (inputs: TurnSpec["tests"][number]["inputs"]) => inputs as Record<string, JudgeTestInput>;

/** The DSL of a turn's workflow, or null when the official converter refuses it. */
export function turnDsl(turn: Pick<TurnToResolve, "spec" | "response" | "appDescription">): DifyDsl | null {
  const conversion = scoreResponse(turn.response, turn.spec).conversion;
  if (!conversion) return null;
  const dsl = buildDifyDsl(conversion, difyAppName(turn.spec.task, turn.spec.round));
  if (turn.appDescription) dsl.app.description = turn.appDescription;
  return dsl;
}

/** Judges one case's stored text outputs with the panel: the verdict, the reason or why there is none, the samples. */
export async function judgeStoredCase(
  panel: ResolveJudgePanel,
  turn: Pick<TurnToResolve, "modelName" | "spec" | "queries">,
  position: TestPosition,
  outputs: string,
  signal?: AbortSignal,
): Promise<{ verdict: boolean | null; reason: string | null; error: string | null; samples: JudgeSampleRow[]; usage: JudgeUsage }> {
  const test = turn.spec.tests[position - 1];
  const question = resolveJudgeItem(
    { model: turn.modelName, task: turn.spec.task, round: turn.spec.round, test: position, queries: turn.queries, inputs: judgeInputs(test?.inputs ?? {}), outputs, groundTruth: test?.groundTruth ?? null, recorded: null },
    panel.systemPrompt,
  );
  const judged = await judgeResolveCase(panel, question, signal);
  const error = judged.verdict === null ? `The judge gave no verdict (${judged.errors.join("; ") || "no reply"}); the case is not judged.` : null;
  return { verdict: judged.verdict, reason: judged.verdict === null ? null : judged.reason, error, samples: judged.samples, usage: judged.usage };
}

export async function resolveTurn(turn: TurnToResolve, options: ResolveTurnOptions): Promise<TurnResolution> {
  const dsl = turnDsl(turn);
  if (!dsl) return { kind: "no-dsl" };
  if (options.checkReady) {
    const problem = await options.checkReady(dsl);
    if (problem) return { kind: "not-ready", message: problem };
  }
  let session = await options.sessions.current();
  if (!session.ok) return { kind: "setup-failed", error: session.error };
  if (turn.removeLeftovers && turn.appDescription) {
    const listed = await session.value.listApps(dsl.app.name);
    for (const leftover of listed.ok ? listed.value.filter((app) => app.description === turn.appDescription) : []) await session.value.deleteApp(leftover.id);
  }
  const yaml = toDifyYaml(dsl);
  let imported = await session.value.importDsl(yaml);
  if (!imported.ok && imported.error.status === 401) {
    // The session expired and could not be refreshed: sign in again once.
    session = await options.sessions.renew();
    if (!session.ok) return { kind: "setup-failed", error: session.error };
    imported = await session.value.importDsl(yaml);
  }
  if (!imported.ok) return { kind: "setup-failed", error: imported.error };
  const dify = session.value;
  const appId = imported.value.appId;
  const notes: string[] = [];
  try {
    const published = await dify.publish(appId);
    const apiKey = published.ok ? await dify.createApiKey(appId) : published;
    if (!apiKey.ok) return { kind: "setup-failed", error: apiKey.error };
    const usage = emptyJudgeUsage();
    const cases: ExecutedCase[] = [];
    const samples: (JudgeSampleRow & { casePosition: number })[] = [];
    for (const [index, test] of turn.spec.tests.entries()) {
      if (options.signal?.aborted) return { kind: "cancelled" };
      const position = (index + 1) as TestPosition;
      const row: ExecutedCase = { position, verdict: false, outputs: null, fileCheck: null, files: [], error: null, difyRunId: null, elapsedMs: null, judgeReason: null };
      cases.push(row);
      const execution = await executeCase(test.inputs, turn.spec.fileChecks, {
        serviceBase: options.serviceBase,
        apiKey: apiKey.value,
        caseFilesDir: options.caseFilesDir,
        user: options.user,
        ...(options.runTimeoutMs ? { timeoutMs: options.runTimeoutMs } : {}),
        ...(options.deps ? { deps: options.deps } : {}),
        call: options.call,
      });
      if (execution.kind === "missing-file") {
        row.error = execution.message;
        continue;
      }
      notes.push(...execution.notes.map((text) => `test${position}: ${text}`));
      row.elapsedMs = execution.elapsedMs;
      if (execution.kind === "run-failed") {
        if (execution.error.kind === "cancelled") return { kind: "cancelled" };
        row.error =
          execution.error.kind === "timeout" && options.runTimeoutMs
            ? `The run did not finish within ${Math.round(options.runTimeoutMs / 60_000)} min (the connection's timeout).`
            : `The run failed (${execution.error.message}).`;
        continue;
      }
      row.difyRunId = execution.runId;
      row.files = execution.files;
      row.fileCheck = execution.fileCheck;
      if (execution.failure) {
        row.error = execution.failure;
        continue;
      }
      const shown = Object.keys(execution.shown).length;
      row.outputs = shown > 0 ? officialOutputText(execution.shown) : null;
      if (row.outputs === null || !options.judge) {
        row.verdict = caseVerdictAfterChecks(shown, null);
        if (row.verdict === null) row.error = "Not judged: no resolve judge was chosen for its text outputs.";
        continue;
      }
      const judged = await judgeStoredCase(options.judge, turn, position, row.outputs, options.signal);
      addJudgeUsage(usage, judged.usage);
      samples.push(...judged.samples.map((sample) => ({ ...sample, casePosition: position })));
      row.verdict = caseVerdictAfterChecks(shown, judged.verdict);
      row.judgeReason = judged.reason;
      row.error = judged.error;
    }
    return { kind: "executed", apiKey: apiKey.value, cases, samples, usage, notes };
  } finally {
    if (!options.keepApps) {
      const deleted = await dify.deleteApp(appId);
      if (!deleted.ok) notes.push(`could not delete app ${appId} (${deleted.error.message})`);
    }
  }
}
