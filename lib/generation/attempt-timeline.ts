// The attempt timeline of a generated turn: stored GenerationAttempt rows turned into display data (outcome, latency,
// issues, diagnostics, each repair's own diff, the diff of the raw answer against the repaired candidate, and for
// agentic-opencode the opencode run behind the attempt: its steps, the chosen step, exit code, duration, stderr).
// Total: malformed JSON columns become an empty list plus a note, never a throw; texts stay plain text.

import { textDiff } from "@/lib/diff/text-diff";
import type { TextDiff } from "@/lib/diff/types";
import type { AgentRunRecord } from "./attempts";
import { storedAnswer } from "./protocol";

/** A GenerationAttempt row as the database stores it (JSON columns still text). */
export interface StoredAttempt {
  index: number;
  message: string;
  raw: string;
  outcome: string;
  candidate: string | null;
  repairs: string;
  issues: string;
  diagnostics: string;
  latencyMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  /** JSON AgentRunRecord (agentic-opencode), or null. */
  agentRun?: string | null;
}

/** The opencode run behind an attempt, as stored (a duration that cannot be read is null). */
export type TimelineAgentRun = Omit<AgentRunRecord, "durationMs"> & { durationMs: number | null };

export interface TimelineIssue {
  code: string;
  message: string;
}

export interface TimelineDiagnostic {
  code: string;
  message: string;
  nodeId: string | null;
  hint: string | null;
}

export interface TimelineRepair {
  code: string;
  diff: TextDiff;
}

export interface TimelineAttempt {
  index: number;
  outcome: string;
  /** A sentence saying what the outcome means. */
  outcomeText: string;
  message: string;
  raw: string;
  /** The reply after its last </think>: what the repairs start from. */
  rawAnswer: string;
  candidate: string | null;
  repairs: TimelineRepair[];
  issues: TimelineIssue[];
  diagnostics: TimelineDiagnostic[];
  /** The raw answer against the repaired candidate; null when there is no candidate or nothing changed. */
  diff: TextDiff | null;
  latencyMs: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  agentRun: TimelineAgentRun | null;
  /** Columns that did not hold the JSON they should (shown, never hidden). */
  unreadable: string[];
}

const OUTCOME_TEXT: Record<string, string> = {
  accepted: "Accepted: the repaired answer passed the static checks.",
  issues: "Kept as a fallback: valid JSON, but the static checks found issues.",
  "invalid-json": "Rejected: the workflow is not a JSON object even after the repairs.",
  "no-tags": "Rejected: the reply has no <workflow> tags.",
  timeout: "Timed out: the official timeout answer stands in for the reply.",
  answered: "Answered (zero-shot: one call, stored as received).",
};

export function outcomeText(outcome: string): string {
  return OUTCOME_TEXT[outcome] ?? `Outcome "${outcome}".`;
}

/** Outcomes that ended the turn's attempts successfully, for badges. */
export function outcomeTone(outcome: string): "good" | "warn" | "bad" {
  if (outcome === "accepted" || outcome === "answered") return "good";
  if (outcome === "issues") return "warn";
  return "bad";
}

function jsonList(text: string): unknown[] | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

const record = (value: unknown): Record<string, unknown> => (typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {});
const str = (value: unknown): string | null => (typeof value === "string" ? value : null);

function readList<T>(text: string, column: string, unreadable: string[], read: (entry: Record<string, unknown>) => T | null): T[] {
  const list = jsonList(text);
  if (list === null) {
    unreadable.push(column);
    return [];
  }
  return list.flatMap((entry) => {
    const item = read(record(entry));
    return item === null ? [] : [item];
  });
}

const num = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

function readAgentRun(text: string | null | undefined, unreadable: string[]): TimelineAgentRun | null {
  if (text === null || text === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = null;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    unreadable.push("agentRun");
    return null;
  }
  const entry = record(parsed);
  return {
    agent: str(entry.agent) ?? "unknown agent",
    exitCode: num(entry.exitCode),
    durationMs: num(entry.durationMs),
    timedOut: entry.timedOut === true,
    steps: Array.isArray(entry.steps) ? entry.steps.filter((step): step is string => typeof step === "string") : [],
    chosenStep: num(entry.chosenStep),
    hasTags: entry.hasTags === true,
    sessionId: str(entry.sessionId),
    stderrTail: str(entry.stderrTail) ?? "",
  };
}

export function timelineAttempt(row: StoredAttempt): TimelineAttempt {
  const unreadable: string[] = [];
  const repairs = readList(row.repairs, "repairs", unreadable, (entry) => {
    const code = str(entry.code);
    const before = str(entry.before);
    const after = str(entry.after);
    return code !== null && before !== null && after !== null ? { code, diff: textDiff(before, after) } : null;
  });
  const issues = readList(row.issues, "issues", unreadable, (entry) => {
    const code = str(entry.code);
    return code === null ? null : { code, message: str(entry.message) ?? "" };
  });
  const diagnostics = readList(row.diagnostics, "diagnostics", unreadable, (entry) => {
    const code = str(entry.code);
    return code === null ? null : { code, message: str(entry.message) ?? "", nodeId: str(entry.nodeId), hint: str(entry.hint) };
  });
  const rawAnswer = storedAnswer(row.raw);
  const diff = row.candidate !== null && row.candidate !== rawAnswer ? textDiff(rawAnswer, row.candidate) : null;
  return {
    index: row.index,
    outcome: row.outcome,
    outcomeText: outcomeText(row.outcome),
    message: row.message,
    raw: row.raw,
    rawAnswer,
    candidate: row.candidate,
    repairs,
    issues,
    diagnostics,
    diff,
    latencyMs: row.latencyMs,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    agentRun: readAgentRun(row.agentRun, unreadable),
    unreadable,
  };
}

/** The attempts in the order they were made (by index, whatever order the rows came in). */
export function attemptTimeline(rows: readonly StoredAttempt[]): TimelineAttempt[] {
  return [...rows].sort((a, b) => a.index - b.index).map(timelineAttempt);
}
