import "server-only";
// One evaluation with its runs and job: what the evaluation page shows above the progress grid.
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import type { SessionUser } from "../session";
import { findGenerateJob } from "./jobs-of-evaluation";
import { parseEvaluationJudge, type EvaluationJudge, type EvaluationStatus, type GenerationOverrides } from "./types";
import type { GenerationMode } from "@/lib/generation/protocol";

export interface EvaluationRunView {
  id: string;
  runNumber: number;
  label: string;
  status: string;
  responseCount: number;
}

export interface EvaluationView {
  id: string;
  benchmark: { id: string; name: string };
  endpoint: { id: string; label: string; model: string } | null;
  model: { name: string; displayName: string } | null;
  mode: GenerationMode;
  judge: EvaluationJudge;
  difyConnectionId: string | null;
  caseFilesDir: string | null;
  runCount: number;
  params: GenerationOverrides;
  status: EvaluationStatus;
  createdBy: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  jobId: string | null;
  runs: EvaluationRunView[];
}

function parseOverrides(text: string): GenerationOverrides {
  try {
    const value = JSON.parse(text) as GenerationOverrides;
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}

export const EVALUATION_SELECT = {
  id: true,
  mode: true,
  judge: true,
  difyConnectionId: true,
  caseFilesDir: true,
  runCount: true,
  params: true,
  status: true,
  createdBy: true,
  createdAt: true,
  finishedAt: true,
  endpointId: true,
  benchmark: { select: { id: true, name: true } },
  runs: {
    orderBy: { runNumber: "asc" },
    select: { id: true, runNumber: true, label: true, status: true, responseCount: true, model: { select: { name: true, displayName: true } } },
  },
} as const;

type EvaluationRow = {
  id: string;
  mode: string;
  judge: string;
  difyConnectionId: string | null;
  caseFilesDir: string | null;
  runCount: number;
  params: string;
  status: string;
  createdBy: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  endpointId: string | null;
  benchmark: { id: string; name: string };
  runs: { id: string; runNumber: number | null; label: string; status: string; responseCount: number; model: { name: string; displayName: string } }[];
};

export function evaluationView(row: EvaluationRow, endpoint: EvaluationView["endpoint"], jobId: string | null): EvaluationView {
  return {
    id: row.id,
    benchmark: row.benchmark,
    endpoint,
    model: row.runs[0]?.model ?? null,
    mode: row.mode as GenerationMode,
    judge: parseEvaluationJudge(row.judge),
    difyConnectionId: row.difyConnectionId,
    caseFilesDir: row.caseFilesDir,
    runCount: row.runCount,
    params: parseOverrides(row.params),
    status: row.status as EvaluationStatus,
    createdBy: row.createdBy,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
    jobId,
    runs: row.runs.map((run) => ({ id: run.id, runNumber: run.runNumber ?? 0, label: run.label, status: run.status, responseCount: run.responseCount })),
  };
}

export async function getEvaluation(db: Database, actor: SessionUser | null, evaluationId: string): Promise<EvaluationView | null> {
  assertAllowed(actor, "read");
  const row = await db.evaluation.findUnique({ where: { id: evaluationId }, select: EVALUATION_SELECT });
  if (!row) return null;
  const endpoint = row.endpointId ? await db.modelEndpoint.findUnique({ where: { id: row.endpointId }, select: { id: true, label: true, model: true } }) : null;
  const job = await findGenerateJob(db, row.id);
  return evaluationView(row, endpoint, job?.id ?? null);
}
