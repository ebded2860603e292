import "server-only";
// The resolve stage over a file of pass records, for the resolve CLI: each turn goes through resolveTurn, the same
// implementation the resolve job runs, after the Dify workspace is checked for what the workflows need.

import { turnKey } from "@/lib/benchmark/dataset";
import type { RunRecord } from "@/lib/benchmark/runs";
import type { TurnSpec } from "@/lib/benchmark/turn";
import { mergeRequirements, readiness, readinessProblem, requirementsOfDsl } from "@/lib/resolve/dify-requirements";
import { importFailureRecord } from "@/lib/resolve/official";
import { withCases, withSetupFailure } from "@/lib/resolve/records";
import type { DifyDeps } from "../dify/client";
import { retryingTransient } from "./execute-case";
import type { ResolveJudgePanel } from "./judge-panel";
import { resolveTurn, turnDsl, type ConsoleSessions } from "./resolve-turn";

export interface ResolveOptions {
  sessions: ConsoleSessions;
  /** The service API base, e.g. http://localhost/v1. */
  serviceBase: string;
  turns: ReadonlyMap<string, TurnSpec>;
  queries: ReadonlyMap<string, readonly string[]>;
  caseFilesDir: string;
  judge: ResolveJudgePanel;
  /** The model name the judge's question names. */
  modelName: string;
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
  /** Test cases whose text outputs the judge did not answer: no testN is written for them. */
  notJudged: number;
}

/** Keys are shown only by their last characters: the file is shared, the key is a credential. */
const maskKey = (token: string) => `app-…${token.slice(-4)}`;

const turnOf = (record: RunRecord, options: Pick<ResolveOptions, "turns">) => options.turns.get(turnKey(record.task, record.round));
const responseOf = (record: RunRecord) => ({ nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow });

/** The pass record without resolve-stage fields an input file may already carry (they are written afresh). */
function passPart(record: RunRecord): RunRecord {
  const copy: Record<string, unknown> = { ...record };
  for (const key of Object.keys(copy)) if (key === "api_key" || /^(test|llm_output_test|llm_evaluate_reason_test)[123]$/.test(key)) delete copy[key];
  return copy as RunRecord;
}

/** What the valid records' workflows need and the workspace lacks, in one sentence; null when it has everything. */
export async function checkReadiness(records: readonly RunRecord[], options: Pick<ResolveOptions, "sessions" | "turns">): Promise<string | null> {
  const dsls = records.flatMap((record) => {
    const spec = record.valid ? turnOf(record, options) : undefined;
    const dsl = spec ? turnDsl({ spec, response: responseOf(record) }) : null;
    return dsl ? [dsl] : [];
  });
  const requirements = mergeRequirements(dsls.map(requirementsOfDsl));
  if (requirements.length === 0) return null;
  const session = await options.sessions.current();
  if (!session.ok) return `Cannot sign in to Dify to check its workspace: ${session.error.message}`;
  const inventory = await session.value.inventory(["llm", "tts"]);
  if (!inventory.ok) return `Cannot list what the Dify workspace has installed (${inventory.error.message}).`;
  return readinessProblem(readiness(requirements, inventory.value));
}

export async function resolveRecords(input: readonly RunRecord[], options: ResolveOptions): Promise<ResolveRun> {
  const notes: string[] = [];
  const note = (text: string) => {
    notes.push(text);
    options.onNote?.(text);
  };
  let judgeCalls = 0;
  let notJudged = 0;
  const records: RunRecord[] = [];
  for (const given of input) {
    const original = passPart(given);
    if (!original.valid) {
      records.push({ ...original });
      continue;
    }
    const key = turnKey(original.task, original.round);
    const spec = turnOf(original, options);
    if (!spec) {
      note(`${key}: not in the benchmark's check files; skipped`);
      records.push({ ...original });
      continue;
    }
    const resolution = await resolveTurn(
      { modelName: options.modelName, spec, response: responseOf(original), queries: options.queries.get(original.task) ?? [] },
      {
        sessions: options.sessions,
        serviceBase: options.serviceBase,
        caseFilesDir: options.caseFilesDir,
        user: options.user,
        ...(options.runTimeoutMs ? { runTimeoutMs: options.runTimeoutMs } : {}),
        keepApps: options.keepApps ?? false,
        ...(options.deps ? { deps: options.deps } : {}),
        call: retryingTransient({ tries: 4, backoffMs: options.serviceBackoffMs ?? 2_000 }),
        judge: options.judge,
      },
    );
    switch (resolution.kind) {
      case "no-dsl":
        note(`${key}: the workflow does not convert to a Dify DSL; its tests fail`);
        records.push({ ...original, test1: false, test2: false, test3: false });
        break;
      case "not-ready":
      case "cancelled":
        note(`${key}: ${resolution.kind === "cancelled" ? "cancelled" : resolution.message}; its tests are left out`);
        records.push({ ...original });
        break;
      case "setup-failed": {
        // Step 1_5: an import failure may make the item invalid; publish and key failures leave it valid with no key.
        const { error } = resolution;
        const outcome = error.step === "import" || error.step === "confirm" ? importFailureRecord({ step: error.step, status: error.status }) : "Other-Error";
        note(`${key}: Dify ${error.step} failed (${error.message})${outcome === "step_1_5" ? "" : "; the item stays valid and its tests fail"}`);
        records.push(withSetupFailure({ ...original }, outcome));
        break;
      }
      case "executed": {
        for (const text of resolution.notes) note(`${key} ${text}`);
        for (const entry of resolution.cases) if (entry.error) note(`${key} test${entry.position}: ${entry.error}`);
        judgeCalls += resolution.usage.calls;
        notJudged += resolution.cases.filter((entry) => entry.verdict === null).length;
        records.push(withCases({ ...original, api_key: maskKey(resolution.apiKey) }, resolution.cases.map((entry) => ({ ...entry }))));
        break;
      }
    }
  }
  return { records, notes, judgeCalls, notJudged };
}
