import "server-only";
// The stored dry run of one response (DryRunCase rows written by the dry-run job): a prediction of local execution
// with the mock model, never a Dify resolve verdict. Readers of the response may read it.
import type { TraceStep } from "@/lib/dry-run/engine";
import type { DryRunOutput } from "@/lib/dry-run/execute";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import type { SessionUser } from "../session";

export interface StoredDryRunCase {
  position: number;
  outcome: "completed" | "failed";
  /** The failing node's id as the response wrote it. */
  failedNode: string | null;
  reason: string | null;
  fileCheck: "passed" | "failed" | "none";
  outputs: Record<string, DryRunOutput>;
  trace: TraceStep[];
  model: string;
  executedAt: string;
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

export async function dryRunCasesOf(db: Database, actor: SessionUser | null, responseId: string): Promise<{ runId: string; passed: boolean; cases: StoredDryRunCase[] } | null> {
  assertAllowed(actor, "read");
  const response = await db.response.findUnique({
    where: { id: responseId },
    select: { runId: true, passResult: { select: { valid: true } }, dryRunCases: { orderBy: { position: "asc" } } },
  });
  if (!response) return null;
  return {
    runId: response.runId,
    passed: response.passResult?.valid === true,
    cases: response.dryRunCases.map((row) => ({
      position: row.position,
      outcome: row.outcome === "failed" ? "failed" : "completed",
      failedNode: row.failedNode,
      reason: row.reason,
      fileCheck: row.fileCheck === "passed" || row.fileCheck === "failed" ? row.fileCheck : "none",
      outputs: parseJson<Record<string, DryRunOutput>>(row.outputs, {}),
      trace: parseJson<TraceStep[]>(row.trace, []),
      model: row.model,
      executedAt: row.executedAt.toISOString(),
    })),
  };
}
