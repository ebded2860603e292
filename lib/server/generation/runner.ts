import "server-only";
// Generates a model's answers in every mode, rounds in order and tasks concurrently, so a failed call costs one turn;
// a turn sees only its task's instructions, the prompt or skill and earlier answers, never the check data.

import type { ResponseItem } from "@/lib/benchmark/official-files";
import { runAgenticTurn, type Attempt, type CallResult } from "@/lib/generation/attempts";
import { contextPrefix, storedAnswer, ZERO_SHOT_PARAMS, zeroShotMessages, type Exchange, type GenerationMode } from "@/lib/generation/protocol";
import type { ChatParams } from "@/lib/judge/identity";
import type { ChatClient, ChatOutcome } from "@/lib/server/llm";
import type { TaskAgent } from "./opencode";

export interface GenerationTask {
  id: number;
  category: string;
  task: string;
  queries: readonly string[];
}

export type { ResponseItem };

export interface TurnRecord {
  task: string;
  round: number;
  mode: GenerationMode;
  ok: boolean;
  /** The stored answer (zero-shot: after the last </think>; agentic: after the auto-repairs). */
  answer?: string;
  /** The raw reply of a zero-shot call. */
  raw?: string;
  error?: string;
  /** Agentic modes: false when no attempt passed the static checks and the fallback was stored. */
  accepted?: boolean;
  attempts?: Attempt[];
  /** Model calls this turn made (attempts; HTTP retries are counted by the client). */
  calls: number;
  latencyMs: number;
}

export interface GenerationOptions {
  client: ChatClient;
  tasks: readonly GenerationTask[];
  mode: GenerationMode;
  /** prompts/builder_prompt.txt (zero-shot). */
  builderPrompt: string;
  /** .agents/skills/chat2workflow/SKILL.md (agentic modes). */
  skill?: string;
  /** agentic-opencode: opens a task's agent (its sandbox) before its first round; closed when the task is over. */
  openAgent?: (task: GenerationTask) => Promise<TaskAgent>;
  /** A previous (partial) output: its non-empty answers are kept and not generated again. */
  existing?: readonly ResponseItem[];
  /** Turns in flight at once (default: the client's concurrency); a turn of a task waits for its previous round. */
  concurrency?: number;
  /** Zero-shot parameters (default temperature 0.7, max_tokens 32768). Agentic calls send only what is given. */
  params?: ChatParams;
  signal?: AbortSignal;
  /** Called after every finished turn with the items as they now stand (to save progress). */
  onTurn?: (record: TurnRecord, items: readonly ResponseItem[]) => void | Promise<void>;
}

export interface GenerationRun {
  items: ResponseItem[];
  turns: TurnRecord[];
  generated: number;
  skipped: number;
  failed: number;
  cancelled: boolean;
}

const answerKey = (round: number) => `answer${round}` as const;

/** One item per task in task order, holding the existing non-empty answers (an empty answer is generated again). */
export function responseItemsFrom(tasks: readonly GenerationTask[], existing: readonly ResponseItem[] = []): ResponseItem[] {
  const byTask = new Map(existing.map((item) => [item.task, item]));
  return tasks.map((task) => {
    const item = { id: task.id, category: task.category, task: task.task } as ResponseItem;
    const previous = byTask.get(task.task);
    for (let round = 1; round <= task.queries.length; round++) {
      const answer = previous?.[answerKey(round)];
      if (typeof answer === "string" && answer !== "") item[answerKey(round)] = answer;
    }
    return item;
  });
}

/** Answers in round order whatever order they were set in (the file lists answer1..N). */
function orderedItem(item: ResponseItem): ResponseItem {
  const ordered = { id: item.id, category: item.category, task: item.task } as ResponseItem;
  const rounds = Object.keys(item)
    .filter((key) => /^answer\d+$/.test(key))
    .map((key) => Number(key.slice("answer".length)))
    .sort((a, b) => a - b);
  for (const round of rounds) ordered[answerKey(round)] = item[answerKey(round)] as string;
  return ordered;
}

function describeFailure(outcome: Extract<ChatOutcome, { ok: false }>): string {
  return `${outcome.error.kind}${outcome.error.status !== null ? ` (HTTP ${outcome.error.status})` : ""}: ${outcome.error.message}`;
}

/** What one turn needs besides its task, round and history. */
export interface TurnContext {
  client: ChatClient;
  mode: GenerationMode;
  /** prompts/builder_prompt.txt (zero-shot). */
  builderPrompt: string;
  /** SKILL.md (agentic modes). */
  skill?: string;
  /** agentic-opencode: the task's agent, whose runs stand for the model calls. */
  agent?: Pick<TaskAgent, "run">;
  /** Overrides of the official parameters (zero-shot defaults: ZERO_SHOT_PARAMS; agentic: none). */
  params?: ChatParams;
  signal?: AbortSignal;
}

/** Generates one round of a task after the given earlier exchanges: one call (zero-shot) or up to 5 attempts. */
export function generateTurn(context: TurnContext, task: GenerationTask, round: number, history: readonly Exchange[]): Promise<TurnRecord> {
  return context.mode === "zero-shot" ? zeroShotTurn(context, task, round, history) : agenticTurn(context, task, round, history);
}

async function zeroShotTurn(context: TurnContext, task: GenerationTask, round: number, history: readonly Exchange[]): Promise<TurnRecord> {
  const { client, signal, mode } = context;
  const params: ChatParams = { ...ZERO_SHOT_PARAMS, ...(context.params ?? {}) };
  const started = performance.now();
  const outcome = await client.complete(zeroShotMessages(context.builderPrompt, history, task.queries[round - 1] as string), { params, ...(signal ? { signal } : {}) });
  const base = { task: task.task, round, mode, calls: 1, latencyMs: Math.round(performance.now() - started) };
  if (!outcome.ok) return { ...base, ok: false, error: describeFailure(outcome) };
  return { ...base, ok: true, raw: outcome.content, answer: storedAnswer(outcome.content) };
}

async function agenticTurn(context: TurnContext, task: GenerationTask, round: number, history: readonly Exchange[]): Promise<TurnRecord> {
  const { client, signal, mode } = context;
  const params: ChatParams = { ...(context.params ?? {}) };
  const started = performance.now();
  const base = { task: task.task, round, mode, calls: 0, latencyMs: 0 };
  const prefix = contextPrefix(history.map((exchange, index) => ({ round: index + 1, query: exchange.query, answer: exchange.answer })));
  if (!prefix.ok) return { ...base, ok: false, error: prefix.reason };
  const agent = context.agent;
  if (mode === "agentic-opencode" && !agent) return { ...base, ok: false, error: "agentic-opencode needs the opencode agent, and none was given" };
  const complete = async (message: string): Promise<CallResult> => {
    if (agent) return agent.run(message, signal);
    // A timed-out attempt counts as the official [TIMEOUT] answer at once: it is never retried.
    const outcome = await client.complete([{ role: "user", content: message }], { params, retryTimeouts: false, ...(signal ? { signal } : {}) });
    if (outcome.ok) return { kind: "reply", content: outcome.content };
    // A timeout stands for the official 300 s opencode timeout; any other failure is the official non-zero exit.
    return outcome.error.kind === "timeout" ? { kind: "timeout", message: describeFailure(outcome) } : { kind: "error", message: describeFailure(outcome) };
  };
  const result = await runAgenticTurn({
    skill: context.skill ?? "",
    round,
    query: task.queries[round - 1] as string,
    prefix: prefix.prefix,
    feedback: mode === "feedback",
    complete,
  });
  const done = { ...base, calls: result.attempts.length + (result.ok ? 0 : 1), latencyMs: Math.round(performance.now() - started), attempts: result.attempts };
  return result.ok ? { ...done, ok: true, answer: result.answer, accepted: result.accepted } : { ...done, ok: false, error: result.error };
}

export async function generateResponses(options: GenerationOptions): Promise<GenerationRun> {
  const { client, mode, signal } = options;
  const items = responseItemsFrom(options.tasks, options.existing);
  const turns: TurnRecord[] = [];
  const counts = { generated: 0, skipped: 0, failed: 0 };
  const turnContext: TurnContext = {
    client,
    mode,
    builderPrompt: options.builderPrompt,
    ...(options.skill !== undefined ? { skill: options.skill } : {}),
    ...(options.params ? { params: options.params } : {}),
    ...(signal ? { signal } : {}),
  };
  let saving: Promise<void> = Promise.resolve();

  const finish = async (record: TurnRecord, index: number) => {
    turns.push(record);
    if (record.ok) {
      counts.generated += 1;
      items[index] = orderedItem({ ...items[index], [answerKey(record.round)]: record.answer } as ResponseItem);
    } else counts.failed += 1;
    // Saves run one after another, each seeing every turn finished before it.
    const snapshot = items.slice();
    saving = saving.then(() => options.onTurn?.(record, snapshot));
    await saving;
  };

  // Per task: the next round to look at, the exchanges so far, and whether a turn is in flight or the task is over.
  const states = options.tasks.map(() => ({ next: 1, history: [] as Exchange[], busy: false, over: false }));

  /** Moves past answers already present (they join the history); true when a round is left to generate. */
  const advance = (index: number): boolean => {
    const task = options.tasks[index] as GenerationTask;
    const state = states[index] as (typeof states)[number];
    while (state.next <= task.queries.length) {
      const present = items[index]?.[answerKey(state.next)];
      if (typeof present !== "string" || present === "") return true;
      counts.skipped += 1;
      state.history.push({ query: task.queries[state.next - 1] as string, answer: present });
      state.next += 1;
    }
    state.over = true;
    return false;
  };

  // agentic-opencode: one agent (sandbox) per task, opened for its first generated round, closed when it is over.
  const agents = new Map<number, Promise<TaskAgent>>();
  const closeAgent = async (index: number) => {
    const agent = agents.get(index);
    agents.delete(index);
    if (agent) await agent.then((opened) => opened.close()).catch(() => undefined);
  };

  async function nextTurn(index: number): Promise<void> {
    const task = options.tasks[index] as GenerationTask;
    const state = states[index] as (typeof states)[number];
    const round = state.next;
    let context = turnContext;
    if (mode === "agentic-opencode" && options.openAgent) {
      let agent = agents.get(index);
      if (!agent) {
        agent = options.openAgent(task);
        agents.set(index, agent);
      }
      context = { ...turnContext, agent: await agent };
    }
    const record = await generateTurn(context, task, round, state.history);
    if (signal?.aborted && !record.ok) {
      state.over = true;
      return;
    }
    await finish(record, index);
    // Later rounds build on this one: without it they wait for a resumed run.
    if (!record.ok) {
      state.over = true;
      return;
    }
    state.history.push({ query: task.queries[round - 1] as string, answer: record.answer as string });
    state.next += 1;
  }

  // Rounds of a task form a chain of calls. A free slot goes to the ready task with the most rounds left (then the
  // earlier task): for equal-length calls this highest-level-first order is the shortest schedule of chains.
  for (let index = 0; index < states.length; index++) advance(index);
  const slots = Math.max(1, options.concurrency ?? client.concurrency);
  const roundsLeft = (index: number) => (options.tasks[index] as GenerationTask).queries.length - (states[index] as (typeof states)[number]).next + 1;
  await new Promise<void>((resolve, reject) => {
    let active = 0;
    const pump = () => {
      while (active < slots && !signal?.aborted) {
        let best = -1;
        states.forEach((state, index) => {
          if (!state.busy && !state.over && (best < 0 || roundsLeft(index) > roundsLeft(best))) best = index;
        });
        if (best < 0) break;
        const state = states[best] as (typeof states)[number];
        state.busy = true;
        active += 1;
        nextTurn(best).then(
          async () => {
            state.busy = false;
            if (!state.over) advance(best);
            if (state.over) await closeAgent(best);
            active -= 1;
            pump();
          },
          reject,
        );
      }
      if (active === 0) resolve();
    };
    pump();
  }).finally(() => Promise.all([...agents.keys()].map(closeAgent)));
  await saving;
  return { items, turns, ...counts, cancelled: signal?.aborted ?? false };
}
