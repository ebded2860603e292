// A companion of the OpenAI stub for generation tests: it answers each round's query with a shared run's recorded
// answer (rebuilt as the three tags from the record's fields, after a <think> block that must never come back) and
// checks the official zero-shot protocol on every request. It is not a model: it only replays what a run recorded.

import { turnKey } from "@/lib/benchmark/dataset";
import type { TaskQueries } from "@/lib/benchmark/dataset";
import type { RunRecord } from "@/lib/benchmark/runs";
import type { ChatMessage } from "@/lib/judge/protocol";
import { pyStrip } from "@/lib/workflow/python-values";
import type { StubHandler } from "./openai-stub";

/** A record's answer as a model would have written it: the tags whose fields were recorded (none when step 1_1 failed). */
export function recordedAnswerText(record: Pick<RunRecord, "node_selection" | "design_principle" | "workflow">): string {
  const parts: string[] = [];
  if (record.node_selection !== null) parts.push(`<node_selection>${record.node_selection}</node_selection>`);
  if (record.design_principle !== null) parts.push(`<design_principle>${record.design_principle}</design_principle>`);
  if (record.workflow !== null) parts.push(`<workflow>${record.workflow}</workflow>`);
  return parts.length > 0 ? parts.join("\n\n") : "I cannot produce the workflow sections for this request.";
}

const THINKING = (key: string) => `<think>private reasoning for ${key} that must not be replayed</think>`;

export interface GenerationReplay {
  handler: StubHandler;
  /** Every protocol violation seen (the test fails unless it stays empty). */
  violations: string[];
  /** Turn keys in the order they were asked. */
  asked: string[];
}

/**
 * Replays `records` for zero-shot generation. Each request must be: the stripped builder prompt as system message,
 * then for every earlier round its query and the replayed answer with the <think> block removed, then this round's
 * query; a round may only be asked after the task's earlier rounds. A violating request gets HTTP 400.
 */
export function zeroShotReplay(builderPrompt: string, tasks: readonly TaskQueries[], records: readonly RunRecord[]): GenerationReplay {
  const byKey = new Map(records.map((record) => [turnKey(record.task, record.round), record]));
  const byQuery = new Map<string, { task: TaskQueries; round: number }[]>();
  for (const task of tasks) task.queries.forEach((query, index) => byQuery.set(query, [...(byQuery.get(query) ?? []), { task, round: index + 1 }]));
  const violations: string[] = [];
  const asked: string[] = [];
  const answered = new Set<string>();
  const answerOf = (key: string) => {
    const record = byKey.get(key);
    return record ? recordedAnswerText(record) : null;
  };
  const expectedMessages = (task: TaskQueries, round: number): ChatMessage[] => {
    const messages: ChatMessage[] = [{ role: "system", content: pyStrip(builderPrompt) }];
    for (let earlier = 1; earlier < round; earlier++) {
      messages.push({ role: "user", content: task.queries[earlier - 1] as string }, { role: "assistant", content: answerOf(turnKey(task.task, earlier)) ?? "" });
    }
    messages.push({ role: "user", content: task.queries[round - 1] as string });
    return messages;
  };
  const handler: StubHandler = (request) => {
    const last = request.messages.at(-1);
    // Identical queries in two tasks are told apart by the history that comes with them.
    const candidates = last?.role === "user" ? (byQuery.get(last.content) ?? []) : [];
    const match = candidates.find(({ task, round }) => JSON.stringify(expectedMessages(task, round)) === JSON.stringify(request.messages));
    if (!match) {
      const hint = candidates[0] ? ` (expected the protocol of ${turnKey(candidates[0].task.task, candidates[0].round)})` : " (the last message is not a known query)";
      violations.push(`request ${request.index}: messages do not follow the zero-shot protocol${hint}`);
      return { kind: "error", status: 400, message: "protocol violation" };
    }
    const key = turnKey(match.task.task, match.round);
    for (let earlier = 1; earlier < match.round; earlier++) {
      if (!answered.has(turnKey(match.task.task, earlier))) violations.push(`request ${request.index}: ${key} asked before round ${earlier} was answered`);
    }
    if (request.body.temperature !== 0.7 || request.body.max_tokens !== 32768) violations.push(`request ${request.index}: expected temperature 0.7 and max_tokens 32768`);
    asked.push(key);
    const answer = answerOf(key);
    if (answer === null) return { kind: "error", status: 404, message: `no recorded answer for ${key}` };
    answered.add(key);
    return { kind: "reply", content: `${THINKING(key)}${answer}` };
  };
  return { handler, violations, asked };
}
