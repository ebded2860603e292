import "server-only";
// Responses: one response with its turn, conversation, stored verdicts and test results (the response page), and a
// run's responses with their verdicts and top diagnostic (the run page). Each function checks the actor first.
import { z } from "zod";
import { blindVisibility } from "./review/blind-visibility";
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import { parseColumn, readTurnVariables } from "./json-columns";
import { parseRunJudge, type RunJudge } from "@/lib/judge/run-judge";
import type { SessionUser } from "../session";

const fileChecksSchema = z.record(z.string(), z.string());
const inputsSchema = z.record(z.string(), z.unknown());

export interface ResponseDetail {
  id: string;
  rawText: string | null;
  nodeSelection: string | null;
  designPrinciple: string | null;
  workflow: string | null;
  run: {
    id: string;
    label: string;
    origin: string;
    coreVersion: string;
    /** When the run's stored verdicts were last computed: views derived from them are keyed by it. */
    scoredAt: Date;
    hasResolve: boolean;
    model: { name: string; displayName: string };
    benchmark: { id: string; name: string };
    /** The run's own judge: whose step 1_4 verdict is the run's (lib/judge/run-judge). */
    judge: RunJudge;
  };
  turn: {
    key: string;
    round: number;
    instruction: string;
    inputVars: string[];
    outputVars: string[] | string[][];
    keyNodes: string[];
    fileChecks: Record<string, string>;
    task: { name: string; domain: string; roundCount: number };
    /** The instructions of the task's earlier rounds, in order. */
    earlier: { round: number; instruction: string }[];
    tests: { position: number; inputs: Record<string, unknown>; groundTruth: string | null }[];
  };
  pass: {
    valid: boolean;
    failStep: string | null;
    verdictSource: string;
    recordedValid: boolean | null;
    recordedFailStep: string | null;
    officialFailStep: string | null;
    ruleJudge: boolean | null;
    deterministicValid: boolean;
    disagreement: string | null;
    diagnosticCount: number;
    coreVersion: string;
  } | null;
  /** A null verdict: not judged yet (text outputs no LLM judge has answered). */
  cases: { position: number; verdict: boolean | null; outputs: string | null; fileCheck: string | null; error: string | null }[];
  judges: { stage: string; casePosition: number; judge: string; sampleIndex: number; reason: string | null; verdict: boolean }[];
  /** The run's responses just before and after this one (by task, then round). */
  previous: { id: string; label: string } | null;
  next: { id: string; label: string } | null;
}

export async function getResponseDetail(db: Database, actor: SessionUser | null, responseId: string): Promise<ResponseDetail | null> {
  assertAllowed(actor, "read");
  const response = await db.response.findUnique({
    where: { id: responseId },
    include: {
      run: { include: { model: { select: { name: true, displayName: true } }, benchmark: { select: { id: true, name: true } } } },
      turn: {
        include: {
          task: { include: { domain: { select: { name: true } }, turns: { select: { round: true, instruction: true }, orderBy: { round: "asc" } } } },
          testCases: { orderBy: { position: "asc" } },
        },
      },
      passResult: true,
      caseResults: { orderBy: { position: "asc" } },
      judgeVerdicts: { orderBy: [{ stage: "asc" }, { casePosition: "asc" }, { judge: "asc" }, { sampleIndex: "asc" }] },
    },
  });
  if (!response) return null;
  const siblings = await db.response.findMany({
    where: { runId: response.runId },
    select: { id: true, turn: { select: { round: true, task: { select: { name: true } } } } },
  });
  siblings.sort((a, b) => a.turn.task.name.localeCompare(b.turn.task.name) || a.turn.round - b.turn.round);
  const at = siblings.findIndex((sibling) => sibling.id === response.id);
  const neighbour = (index: number) => {
    const sibling = siblings[index];
    return sibling ? { id: sibling.id, label: `${sibling.turn.task.name} round ${sibling.turn.round}` } : null;
  };
  const { turn, run, passResult: pass } = response;
  return {
    id: response.id,
    rawText: response.rawText,
    nodeSelection: response.nodeSelection,
    designPrinciple: response.designPrinciple,
    workflow: response.workflow,
    run: {
      id: run.id,
      label: run.label,
      origin: run.origin,
      coreVersion: run.coreVersion,
      scoredAt: run.scoredAt,
      hasResolve: run.hasResolve,
      model: run.model,
      benchmark: run.benchmark,
      judge: parseRunJudge(run.judge, run.origin),
    },
    turn: {
      key: turn.key,
      round: turn.round,
      instruction: turn.instruction,
      ...readTurnVariables(turn),
      fileChecks: parseColumn(turn.fileChecks, fileChecksSchema, {}),
      task: { name: turn.task.name, domain: turn.task.domain.name, roundCount: turn.task.roundCount },
      earlier: turn.task.turns.filter((other) => other.round < turn.round),
      tests: turn.testCases.map((test) => ({ position: test.position, inputs: parseColumn(test.inputs, inputsSchema, {}), groundTruth: test.groundTruth })),
    },
    pass: pass
      ? {
          valid: pass.valid,
          failStep: pass.failStep,
          verdictSource: pass.verdictSource,
          recordedValid: pass.recordedValid,
          recordedFailStep: pass.recordedFailStep,
          officialFailStep: pass.officialFailStep,
          ruleJudge: pass.ruleJudge,
          deterministicValid: pass.deterministicValid,
          disagreement: pass.disagreement,
          diagnosticCount: pass.diagnosticCount,
          coreVersion: pass.coreVersion,
        }
      : null,
    cases: response.caseResults.map(({ position, verdict, outputs, fileCheck, error }) => ({ position, verdict, outputs, fileCheck, error })),
    judges: response.judgeVerdicts.map(({ stage, casePosition, judge, sampleIndex, reason, verdict }) => ({ stage, casePosition, judge, sampleIndex, reason, verdict })),
    previous: at > 0 ? neighbour(at - 1) : null,
    next: at >= 0 ? neighbour(at + 1) : null,
  };
}

type StoredDiagnostic = { code: string; category: string; severity: string; message: string; officialStep: string | null };

/** The diagnostic that explains the fail step (the first one at that step), else the first one overall. */
function topDiagnostic(diagnostics: readonly StoredDiagnostic[], step: string | null): RunResponseRow["topDiagnostic"] {
  const chosen = (step !== null ? diagnostics.find((d) => d.officialStep === step) : undefined) ?? diagnostics[0];
  return chosen ? { code: chosen.code, category: chosen.category, severity: chosen.severity, message: chosen.message } : null;
}

export interface RunResponseRow {
  id: string;
  task: string;
  domain: string;
  round: number;
  valid: boolean | null;
  failStep: string | null;
  verdictSource: string | null;
  recordedFailStep: string | null;
  officialFailStep: string | null;
  deterministicValid: boolean | null;
  ruleJudge: boolean | null;
  disagreement: string | null;
  diagnosticCount: number;
  /** The diagnostic explaining the fail step (ours, else the recorded one), else the first one. */
  topDiagnostic: { code: string; category: string; severity: string; message: string } | null;
  casesPassed: number | null;
  /** Test cases not judged yet (text outputs no LLM judge has answered). */
  casesNotJudged: number;
  caseCount: number;
}

export interface RunResponses {
  run: {
    id: string;
    label: string;
    origin: string;
    coreVersion: string;
    hasResolve: boolean;
    responseCount: number;
    importedAt: Date;
    /** "complete" | "in-progress" | "failed" | "cancelled"; generated runs also name their evaluation and mode. */
    status: string;
    evaluationId: string | null;
    generationMode: string | null;
    /** The agent framework and version that generated the run (agentic-opencode), else null. */
    agentVersion: string | null;
    model: { name: string; displayName: string };
    benchmark: { id: string; name: string };
  };
  responses: RunResponseRow[];
}

export async function listRunResponses(db: Database, actor: SessionUser | null, runId: string): Promise<RunResponses | null> {
  assertAllowed(actor, "read");
  const run = await db.run.findUnique({
    where: { id: runId },
    include: { model: { select: { name: true, displayName: true } }, benchmark: { select: { id: true, name: true } } },
  });
  if (!run) return null;
  const responses = await db.response.findMany({
    where: { runId },
    select: {
      id: true,
      turn: { select: { round: true, task: { select: { name: true, domain: { select: { name: true } } } } } },
      passResult: {
        select: {
          valid: true,
          failStep: true,
          verdictSource: true,
          recordedFailStep: true,
          officialFailStep: true,
          deterministicValid: true,
          ruleJudge: true,
          disagreement: true,
          diagnosticCount: true,
          diagnostics: { orderBy: { position: "asc" }, select: { code: true, category: true, severity: true, message: true, officialStep: true } },
        },
      },
      caseResults: { select: { verdict: true } },
    },
  });
  // Blind review: a response under review by this reader lists no verdict, fail step, test result or diagnostic.
  const blind = await blindVisibility(db, actor, { runIds: [run.id] });
  const rows: RunResponseRow[] = responses.map((response) => {
    const hidden = blind.verdictHidden(response.id);
    const pass = hidden ? null : response.passResult;
    return {
      id: response.id,
      task: response.turn.task.name,
      domain: response.turn.task.domain.name,
      round: response.turn.round,
      valid: pass?.valid ?? null,
      failStep: pass?.failStep ?? null,
      verdictSource: pass?.verdictSource ?? null,
      recordedFailStep: pass?.recordedFailStep ?? null,
      officialFailStep: pass?.officialFailStep ?? null,
      deterministicValid: pass?.deterministicValid ?? null,
      ruleJudge: pass?.ruleJudge ?? null,
      disagreement: pass?.disagreement ?? null,
      diagnosticCount: pass?.diagnosticCount ?? 0,
      topDiagnostic: pass ? topDiagnostic(pass.diagnostics, pass.officialFailStep ?? pass.failStep) : null,
      casesPassed: run.hasResolve && pass ? response.caseResults.filter((c) => c.verdict === true).length : null,
      casesNotJudged: hidden ? 0 : response.caseResults.filter((c) => c.verdict === null).length,
      caseCount: response.caseResults.length,
    };
  });
  rows.sort((a, b) => a.task.localeCompare(b.task) || a.round - b.round);
  return {
    run: {
      id: run.id,
      label: run.label,
      origin: run.origin,
      coreVersion: run.coreVersion,
      hasResolve: run.hasResolve,
      responseCount: run.responseCount,
      importedAt: run.importedAt,
      status: run.status,
      evaluationId: run.evaluationId,
      generationMode: run.generationMode,
      agentVersion: run.agentVersion,
      model: run.model,
      benchmark: run.benchmark,
    },
    responses: rows,
  };
}

/** Whether a response exists: the cheap check a page makes before streaming, so an unknown id answers 404. */
export async function responseExists(db: Database, actor: SessionUser | null, responseId: string): Promise<boolean> {
  assertAllowed(actor, "read");
  return (await db.response.findUnique({ where: { id: responseId }, select: { id: true } })) !== null;
}
