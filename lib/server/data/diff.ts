import "server-only";
// The diff pages' data: two stored responses with their turns and stored verdicts, found by run + task + round (a
// turn diff: round n−1 and n), by turn + two runs (a model diff) or by two response ids; and the runs, tasks and turns
// the pickers offer. Every function checks the actor's "read" permission before its queries. Unknown ids give null.
import { comparisonInputOf, type Comparison } from "@/lib/diff-view/comparison";
import { DEMO_IMPORTER } from "@/lib/leaderboard/benchmarks";
import { analyse } from "../analysis/pool";
import type { Database } from "../db";
import { assertAllowed } from "../authz";
import { derivedOnceAsync } from "./derived-cache";
import { blindVisibility } from "./review/blind-visibility";
import { readTurnVariables } from "./json-columns";
import type { SessionUser } from "../session";


export interface DiffRunOption {
  id: string;
  label: string;
  origin: string;
  model: { name: string; displayName: string };
  benchmark: { id: string; name: string };
}

export interface DiffResponse {
  id: string;
  run: { id: string; label: string; origin: string; hasResolve: boolean; model: { name: string; displayName: string } };
  turn: {
    id: string;
    key: string;
    round: number;
    instruction: string;
    inputVars: string[];
    outputVars: string[] | string[][];
    keyNodes: string[];
    task: { name: string; roundCount: number };
  };
  texts: { rawText: string | null; nodeSelection: string | null; designPrinciple: string | null; workflow: string | null };
  /** The recorded verdict (official run files); null when the run has none (raw model output). */
  recorded: { valid: boolean | null; failStep: string | null } | null;
  /** Stored resolve-stage results per test case. */
  cases: { position: number; verdict: boolean | null }[];
}

const runOptionSelect = {
  id: true,
  label: true,
  origin: true,
  model: { select: { name: true, displayName: true } },
  benchmark: { select: { id: true, name: true } },
} as const;

const responseInclude = {
  run: { select: { id: true, label: true, origin: true, hasResolve: true, model: { select: { name: true, displayName: true } } } },
  turn: { include: { task: { select: { name: true, roundCount: true } } } },
  passResult: { select: { verdictSource: true, recordedValid: true, recordedFailStep: true } },
  caseResults: { select: { position: true, verdict: true }, orderBy: { position: "asc" } },
} as const;

type LoadedResponse = NonNullable<Awaited<ReturnType<typeof loadResponse>>>;

function loadResponse(db: Database, where: { id: string } | { runId_turnId: { runId: string; turnId: string } }) {
  return db.response.findUnique({ where, include: responseInclude });
}

function toDiffResponse(response: LoadedResponse): DiffResponse {
  const { run, turn, passResult } = response;
  return {
    id: response.id,
    run: { id: run.id, label: run.label, origin: run.origin, hasResolve: run.hasResolve, model: run.model },
    turn: {
      id: turn.id,
      key: turn.key,
      round: turn.round,
      instruction: turn.instruction,
      ...readTurnVariables(turn),
      task: turn.task,
    },
    texts: { rawText: response.rawText, nodeSelection: response.nodeSelection, designPrinciple: response.designPrinciple, workflow: response.workflow },
    recorded: passResult && passResult.verdictSource === "recorded" ? { valid: passResult.recordedValid, failStep: passResult.recordedFailStep } : null,
    cases: response.caseResults,
  };
}

/** Every run, grouped by benchmark (newest benchmark first, the demo data's last), then by model name. */
export async function listDiffRuns(db: Database, actor: SessionUser | null): Promise<DiffRunOption[]> {
  assertAllowed(actor, "read");
  const runs = await db.run.findMany({
    select: { ...runOptionSelect, benchmark: { select: { id: true, name: true, importedBy: true } } },
    orderBy: [{ benchmark: { importedAt: "desc" } }, { model: { name: "asc" } }, { importedAt: "asc" }],
  });
  const isDemo = (run: (typeof runs)[number]) => run.benchmark.importedBy === DEMO_IMPORTER;
  return [...runs.filter((run) => !isDemo(run)), ...runs.filter(isDemo)].map(({ benchmark: { importedBy: _importedBy, ...benchmark }, ...run }) => ({ ...run, benchmark }));
}

// -- turn diff ------------------------------------------------------------------------------------------------------

export interface DiffTaskOption {
  name: string;
  domain: string;
  roundCount: number;
  /** Rounds the run has a response for. */
  answeredRounds: number[];
}

export interface TurnDiffSource {
  run: DiffRunOption;
  /** The run's benchmark's tasks, by name. */
  tasks: DiffTaskOption[];
  /** The task shown (the one asked for, else the first with two answered consecutive rounds); null when none. */
  task: (DiffTaskOption & { instructions: { round: number; instruction: string }[] }) | null;
  /** The later round shown; null when the task has no answered round. */
  round: number | null;
  /** Round − 1's response (null for round 1, or when the run did not answer it). */
  before: DiffResponse | null;
  after: DiffResponse | null;
}

function defaultRound(task: DiffTaskOption): number | null {
  const answered = new Set(task.answeredRounds);
  const comparable = task.answeredRounds.find((round) => round > 1 && answered.has(round - 1));
  return comparable ?? task.answeredRounds[0] ?? null;
}

/**
 * Round `round − 1` and `round` of `task` in run `runId`. Null (not found) when the run or the task is unknown or the
 * round is outside 1..roundCount; a missing task or round picks the first comparable one.
 */
export async function getTurnDiffSource(
  db: Database,
  actor: SessionUser | null,
  query: { runId: string; task?: string | null; round?: number | null },
): Promise<TurnDiffSource | null> {
  assertAllowed(actor, "read");
  const run = await db.run.findUnique({ where: { id: query.runId }, select: runOptionSelect });
  if (!run) return null;
  const [tasks, answered] = await Promise.all([
    db.task.findMany({
      where: { benchmarkId: run.benchmark.id },
      select: { name: true, roundCount: true, domain: { select: { name: true } } },
      orderBy: { name: "asc" },
    }),
    db.response.findMany({ where: { runId: run.id }, select: { turn: { select: { round: true, task: { select: { name: true } } } } } }),
  ]);
  const roundsByTask = new Map<string, number[]>();
  for (const { turn } of answered) {
    const list = roundsByTask.get(turn.task.name);
    if (list) list.push(turn.round);
    else roundsByTask.set(turn.task.name, [turn.round]);
  }
  const options: DiffTaskOption[] = tasks.map((task) => ({
    name: task.name,
    domain: task.domain.name,
    roundCount: task.roundCount,
    answeredRounds: [...(roundsByTask.get(task.name) ?? [])].sort((a, b) => a - b),
  }));
  let task: DiffTaskOption | undefined;
  if (query.task) {
    task = options.find((option) => option.name === query.task);
    if (!task) return null;
  } else {
    task = options.find((option) => option.answeredRounds.some((round) => round > 1 && option.answeredRounds.includes(round - 1))) ?? options.find((option) => option.answeredRounds.length > 0);
  }
  if (!task) return { run, tasks: options, task: null, round: null, before: null, after: null };
  const lastRound = Math.max(task.roundCount, ...task.answeredRounds);
  if (query.round != null && (query.round < 1 || query.round > lastRound)) return null;
  const round = query.round ?? defaultRound(task);
  const turns = await db.turn.findMany({
    where: { benchmarkId: run.benchmark.id, task: { name: task.name } },
    select: { id: true, round: true, instruction: true },
    orderBy: { round: "asc" },
  });
  const turnOf = (r: number) => turns.find((turn) => turn.round === r);
  const load = async (r: number | null): Promise<DiffResponse | null> => {
    const turn = r === null ? undefined : turnOf(r);
    if (!turn) return null;
    const response = await loadResponse(db, { runId_turnId: { runId: run.id, turnId: turn.id } });
    return response ? toDiffResponse(response) : null;
  };
  const [before, after] = await withoutBlindVerdicts(db, actor, await Promise.all([load(round !== null && round > 1 ? round - 1 : null), load(round)]));
  return {
    run,
    tasks: options,
    task: { ...task, instructions: turns.map(({ round: r, instruction }) => ({ round: r, instruction })) },
    round,
    before: before ?? null,
    after: after ?? null,
  };
}

// -- model diff -----------------------------------------------------------------------------------------------------

export interface DiffTurnOption {
  id: string;
  key: string;
  task: string;
  round: number;
}

export interface ModelDiffSource {
  benchmark: { id: string; name: string };
  turn: DiffTurnOption & { instruction: string; roundCount: number; earlier: { round: number; instruction: string }[] };
  /** The benchmark's turns, by task then round. */
  turns: DiffTurnOption[];
  /** The benchmark's runs, with their response on this turn (null when they did not answer it). */
  runs: (DiffRunOption & { responseId: string | null })[];
  a: { run: DiffRunOption; response: DiffResponse | null } | null;
  b: { run: DiffRunOption; response: DiffResponse | null } | null;
}

/**
 * One turn answered by two runs. `turn` is a Turn id or `<Task>_<round>` (looked up in run `a`'s benchmark, else the
 * newest benchmark that has it). Null when the turn or a named run is unknown, or a run is from another benchmark.
 * A missing `a` / `b` picks the first (other) run that answered the turn; none is null on the result.
 */
export async function getModelDiffSource(
  db: Database,
  actor: SessionUser | null,
  query: { turn?: string | null; a?: string | null; b?: string | null },
): Promise<ModelDiffSource | null> {
  assertAllowed(actor, "read");
  const [runA, runB] = await Promise.all([
    query.a ? db.run.findUnique({ where: { id: query.a }, select: runOptionSelect }) : null,
    query.b ? db.run.findUnique({ where: { id: query.b }, select: runOptionSelect }) : null,
  ]);
  if ((query.a && !runA) || (query.b && !runB)) return null;
  const benchmarkHint = runA?.benchmark.id ?? runB?.benchmark.id ?? null;
  const turnSelect = { id: true, key: true, round: true, instruction: true, benchmarkId: true, task: { select: { name: true, roundCount: true } } } as const;
  let turn = null;
  if (query.turn) {
    turn =
      (await db.turn.findUnique({ where: { id: query.turn }, select: turnSelect })) ??
      (await db.turn.findFirst({
        where: { key: query.turn, ...(benchmarkHint ? { benchmarkId: benchmarkHint } : {}) },
        select: turnSelect,
        orderBy: { benchmark: { importedAt: "desc" } },
      }));
    if (!turn) return null;
  } else {
    // No turn named: the first turn (by task, round) of the runs' benchmark (else the newest) answered by two runs.
    const benchmark = benchmarkHint ?? (await db.benchmark.findFirst({ where: { runs: { some: {} } }, orderBy: { importedAt: "desc" }, select: { id: true } }))?.id;
    if (!benchmark) return null;
    const candidates = await db.turn.findMany({
      where: { benchmarkId: benchmark },
      select: { ...turnSelect, responses: { select: { runId: true } } },
      orderBy: [{ task: { name: "asc" } }, { round: "asc" }],
    });
    const wanted = [runA?.id, runB?.id].filter((id): id is string => Boolean(id));
    const fits = (candidate: (typeof candidates)[number]) =>
      wanted.every((id) => candidate.responses.some((response) => response.runId === id)) && candidate.responses.length >= 2;
    const chosen = candidates.find(fits) ?? candidates[0];
    if (!chosen) return null;
    turn = chosen;
  }
  if ((runA && runA.benchmark.id !== turn.benchmarkId) || (runB && runB.benchmark.id !== turn.benchmarkId)) return null;

  const [benchmark, turns, runs, earlier] = await Promise.all([
    db.benchmark.findUniqueOrThrow({ where: { id: turn.benchmarkId }, select: { id: true, name: true } }),
    db.turn.findMany({ where: { benchmarkId: turn.benchmarkId }, select: { id: true, key: true, round: true, task: { select: { name: true } } }, orderBy: [{ task: { name: "asc" } }, { round: "asc" }] }),
    db.run.findMany({
      where: { benchmarkId: turn.benchmarkId },
      select: { ...runOptionSelect, responses: { where: { turnId: turn.id }, select: { id: true } } },
      orderBy: [{ model: { name: "asc" } }, { importedAt: "asc" }],
    }),
    db.turn.findMany({ where: { benchmarkId: turn.benchmarkId, task: { name: turn.task.name }, round: { lt: turn.round } }, select: { round: true, instruction: true }, orderBy: { round: "asc" } }),
  ]);
  const runOptions = runs.map(({ responses, ...run }) => ({ ...run, responseId: responses[0]?.id ?? null }));
  const pickA = runA ?? runOptions.find((run) => run.responseId !== null && run.id !== runB?.id) ?? null;
  const pickB = runB ?? runOptions.find((run) => run.responseId !== null && run.id !== pickA?.id) ?? null;
  const side = async (run: DiffRunOption | null) => {
    if (!run) return null;
    const response = await loadResponse(db, { runId_turnId: { runId: run.id, turnId: turn.id } });
    const { id, label, origin, model, benchmark: runBenchmark } = run;
    return { run: { id, label, origin, model, benchmark: runBenchmark }, response: response ? toDiffResponse(response) : null };
  };
  const sides = await Promise.all([side(pickA), side(pickB)]);
  const shown = await withoutBlindVerdicts(db, actor, sides.map((entry) => entry?.response));
  const [a = null, b = null] = sides.map((entry, index) => (entry ? { ...entry, response: shown[index] ?? null } : null));
  return {
    benchmark,
    turn: { id: turn.id, key: turn.key, task: turn.task.name, round: turn.round, instruction: turn.instruction, roundCount: turn.task.roundCount, earlier },
    turns: turns.map((t) => ({ id: t.id, key: t.key, task: t.task.name, round: t.round })),
    runs: runOptions,
    a,
    b,
  };
}

// -- any two responses ----------------------------------------------------------------------------------------------

/** Two stored responses by id; null when either is unknown. */
export async function getResponsePair(db: Database, actor: SessionUser | null, a: string, b: string): Promise<{ a: DiffResponse; b: DiffResponse } | null> {
  assertAllowed(actor, "read");
  const [first, second] = await Promise.all([loadResponse(db, { id: a }), loadResponse(db, { id: b })]);
  if (!first || !second) return null;
  const [shownA, shownB] = await withoutBlindVerdicts(db, actor, [toDiffResponse(first), toDiffResponse(second)]);
  return { a: shownA!, b: shownB! };
}

/**
 * The comparison of two stored responses (both re-scored, diffed, laid out), derived once on an analysis worker within
 * its time budget. Callers check the actor may read both.
 */
export function comparisonOf(before: DiffResponse, after: DiffResponse): Promise<Comparison> {
  return derivedOnceAsync(`comparison|${before.id}|${after.id}`, async () => {
    const outcome = await analyse({ kind: "comparison", input: { before: comparisonInputOf(before), after: comparisonInputOf(after) } });
    if (!outcome.ok) throw new Error(outcome.reason === "budget" ? "Comparing these responses took longer than its time budget." : `The comparison failed: ${outcome.message}`);
    return outcome.value;
  });
}

/** Blind review: a response under review by this reader keeps its texts but shows no stored verdict or test result. */
async function withoutBlindVerdicts<T extends DiffResponse | null | undefined>(db: Database, actor: SessionUser | null, responses: T[]): Promise<T[]> {
  const ids = responses.flatMap((response) => (response ? [response.id] : []));
  const blind = await blindVisibility(db, actor, { responseIds: ids });
  if (!blind.hidesAnything) return responses;
  return responses.map((response) => (response && blind.verdictHidden(response.id) ? ({ ...response, recorded: null, cases: [] } as T) : response));
}
