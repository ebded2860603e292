// The score CLI's reading and scoring of run files on the main thread and (from the launcher's bundle, on a machine
// with more than one core) worker threads that open the next file from a shared counter and score it a chunk of
// responses at a time; a thread with no file left to open shares the chunks of one still being scored. A chunk's
// result keeps only what the report, the summary and the requested exports read, so the parsed workflows die young;
// results come back in file and response order whatever thread scored them, so the output is the same on any count.
import { closeSync, fstatSync, openSync, readSync, statSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { isMainThread, MessageChannel, parentPort, receiveMessageOnPort, workerData, type MessagePort, type Worker, type WorkerOptions } from "node:worker_threads";
import type { BenchmarkIssue } from "@/lib/benchmark/issues";
import { parseGenerationFile, parseRunFile, type RunRecord } from "@/lib/benchmark/runs";
import type { Diagnostic } from "@/lib/workflow/diagnostics";
import type * as CozePackage from "@/lib/workflow/coze-package";
import { buildDifyDsl, difyAppName } from "@/lib/workflow/dify-dsl";
import type * as DifyYaml from "@/lib/workflow/dify-yaml";
import type { ResponseInput } from "@/lib/workflow/response";
import { scoreResponse, type ScoreTurn, type ScoredResponse } from "@/lib/workflow/score";
import type { SummaryRow } from "@/lib/workflow/score-summary";

export class UsageError extends Error {}

/** Worker threads pay their own start-up (about a tenth of a second of CPU): beyond a few they only add to it. */
const MAX_THREADS = 4;

export interface ScoreContext {
  turns: ReadonlyMap<string, ScoreTurn>;
  domains: ReadonlyMap<string, string>;
  /** What to build beside the scores for each response: its JSON report entry, its Dify YAML, its Coze package. */
  json: boolean;
  yaml: boolean;
  coze: { githubToken: string } | null;
}

export interface ReportRow extends SummaryRow {
  task: string;
  /** With --yaml-out: the Dify YAML, null when the response does not convert. */
  yaml?: string | null;
  /** With --coze-out: the package's bytes, or the code of the reason there is none. */
  coze?: { bytes: Uint8Array } | { skipped: string };
}

export interface ScoredRunFile {
  model: string;
  file: string;
  rows: ReportRow[];
  /**
   * With --json: the file's entries of the report's `responses` array, as UTF-8 JSON texts of comma-separated entries
   * (one per scored chunk that has any), encoded on the thread that scored them so the main thread only copies bytes.
   */
  responsesJson: Uint8Array[] | null;
  /** Responses whose task and round the benchmark does not have. */
  skipped: number;
}

/** The writers of the exports, loaded only when one is asked for: other runs skip the YAML library's start-up. */
interface Exporters {
  toDifyYaml: typeof DifyYaml.toDifyYaml;
  cozePackage: typeof CozePackage.cozePackage;
}

/** A context as a thread scores with it: with the exporters when it builds exports. */
type ScoringContext = ScoreContext & { exporters: Exporters | null };

async function scoringContext(context: ScoreContext): Promise<ScoringContext> {
  if (!context.yaml && !context.coze) return { ...context, exporters: null };
  const [{ toDifyYaml }, { cozePackage }] = await Promise.all([import("@/lib/workflow/dify-yaml"), import("@/lib/workflow/coze-package")]);
  return { ...context, exporters: { toDifyYaml, cozePackage } };
}

type FileOutcome = { ok: true; value: ScoredRunFile } | { ok: false; message: string };

/** The scores of some responses of a file; with --json, their report entries (empty when all were skipped). */
type ScoredPart = Pick<ScoredRunFile, "rows" | "skipped"> & { responsesJson: Uint8Array | null };

/** One chunk of a file scored, or why the file could not be read. */
type ChunkOutcome = { ok: true; chunk: number; value: ScoredPart } | { ok: false; message: string };

/** Responses a thread claims at a time: few enough that the threads finish within a chunk of each other. */
const CHUNK = 8;
/** A thread out of files reads one that another is scoring when this many chunks are left (a read costs about one). */
const MIN_SHARED_CHUNKS = 3;

export function formatIssues(issues: readonly BenchmarkIssue[], limit = 10): string {
  const lines = issues.slice(0, limit).map((issue) => `  ${issue.message}`);
  if (issues.length > limit) lines.push(`  … and ${issues.length - limit} more`);
  return lines.join("\n");
}

interface RunItem {
  task: string;
  round: number;
  input: ResponseInput;
  /** Only what the report shows of the record: its other texts (judge reasons, test outputs) die with the file's JSON. */
  recorded: Pick<RunRecord, "valid" | "fail_step"> | null;
}

/** Fields of a run record whose text the score reads; the others are only type-checked, then dropped. */
const TEXT_FIELDS = ["task", "node_selection", "design_principle", "workflow", "fail_step"] as const;

/** What the score reads of a run record. */
export type ScoredRecord = Pick<RunRecord, (typeof TEXT_FIELDS)[number] | "round" | "valid">;

/** Whether `text` is all ASCII: its UTF-8 length, counted natively, is then its length (cheaper than a regex scan). */
const isAscii = (text: string): boolean => Buffer.byteLength(text, "utf8") === text.length;
const BACKSLASH = 92;

/** Whether the JSON text holds a `\uXXXX` escape of a character above U+007F (escaped backslashes excluded). */
function escapesNonAscii(text: string): boolean {
  for (let at = text.indexOf("\\u"); at !== -1; at = text.indexOf("\\u", at + 2)) {
    let run = 1;
    while (at - run >= 0 && text.charCodeAt(at - run) === BACKSLASH) run += 1;
    if (run % 2 === 1 && !(text[at + 2] === "0" && text[at + 3] === "0" && /[0-7]/.test(text[at + 4] ?? ""))) return true;
  }
  return false;
}

/** Where utf8OfLatin1 puts a text's bytes, reused: a buffer per text would be allocated (and collected) each time. */
let latin1Bytes = Buffer.allocUnsafeSlow(0);

/** The text the bytes of `text` (one per character, as Latin-1 wrote them) give read as UTF-8. */
export function utf8OfLatin1(text: string): string {
  if (latin1Bytes.length < text.length) latin1Bytes = Buffer.allocUnsafeSlow(Math.max(text.length, 2 * latin1Bytes.length, 16 * 1024));
  const length = latin1Bytes.write(text, 0, "latin1");
  return latin1Bytes.toString("utf8", 0, length);
}

/**
 * What the score reads of a run file's records, parsed from its bytes read as Latin-1: JSON.parse reads that one-byte
 * text about twice as fast as the UTF-8 one, most of which (test outputs, judge reasons) the score drops. The texts it
 * keeps are then decoded as UTF-8, which gives what the UTF-8 text gives unless an escape wrote a non-ASCII character.
 * Null when that is so or the data is not valid run records: the caller reads the file as UTF-8 (same data, or errors).
 */
export function latin1RunRecords(label: string, bytes: Buffer): ScoredRecord[] | null {
  const text = bytes.toString("latin1");
  if (escapesNonAscii(text)) return null;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(data)) return null;
  for (let i = 0; i < data.length; i += 1) {
    const item: unknown = data[i];
    if (typeof item !== "object" || item === null) continue;
    const record = item as Record<string, unknown>;
    for (let k = 0; k < TEXT_FIELDS.length; k += 1) {
      const key = TEXT_FIELDS[k] as (typeof TEXT_FIELDS)[number];
      const value = record[key];
      if (typeof value === "string" && !isAscii(value)) record[key] = utf8OfLatin1(value);
    }
  }
  const records = parseRunFile(label, data);
  return records.ok ? records.value : null;
}

function runItemsOf(records: readonly ScoredRecord[]): RunItem[] {
  return records.map((record) => ({
    task: record.task,
    round: record.round,
    input: { nodeSelection: record.node_selection, designPrinciple: record.design_principle, workflow: record.workflow },
    recorded: { valid: record.valid, fail_step: record.fail_step },
  }));
}

/** This thread's buffer for run files, reused: the bytes die with the file's text, so fresh memory only costs page faults. */
let fileBuffer = Buffer.allocUnsafeSlow(0);

/** The bytes of `file` in this thread's reused buffer, valid until the next call. */
export function readFileReusingBuffer(file: string): Buffer {
  const fd = openSync(file, "r");
  try {
    let length = 0;
    for (;;) {
      // Grown beyond the size stat gives, so a file that grew while read is still read to its end.
      if (length === fileBuffer.length) {
        const grown = Buffer.allocUnsafeSlow(Math.max(fstatSync(fd).size + 1, 2 * fileBuffer.length, 64 * 1024));
        fileBuffer.copy(grown, 0, 0, length);
        fileBuffer = grown;
      }
      const read = readSync(fd, fileBuffer, length, fileBuffer.length - length, null);
      if (read === 0) return fileBuffer.subarray(0, length);
      length += read;
    }
  } finally {
    closeSync(fd);
  }
}

/** A recorded run (runs/<model>.json) or, failing that, a generation output ({task, answer1..N} items). */
function readRunItems(file: string): RunItem[] {
  const label = path.basename(file);
  let bytes: Buffer;
  let data: unknown;
  try {
    bytes = readFileReusingBuffer(file);
    const fast = latin1RunRecords(label, bytes);
    if (fast) return runItemsOf(fast);
    data = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const records = parseRunFile(label, data);
  if (records.ok) return runItemsOf(records.value);
  const generation = parseGenerationFile(label, data);
  if (!generation.ok) throw new UsageError(`${file} is neither a run file nor a generation output:\n${formatIssues(records.issues)}`);
  return generation.value.flatMap((item) => item.answers.map((answer) => ({ task: item.task, round: answer.round, input: { raw: answer.text }, recorded: null })));
}

/** A diagnostic's report entry; optional fields are set only when present (spreads cost more on this cold path). */
function diagnosticJson(d: Diagnostic) {
  const entry: Pick<Diagnostic, "code" | "category" | "severity" | "message" | "officialStep" | "location" | "targetNodeId" | "hint"> = {
    code: d.code,
    category: d.category,
    severity: d.severity,
    message: d.message,
  };
  if (d.officialStep) entry.officialStep = d.officialStep;
  if (d.location) entry.location = d.location;
  if (d.targetNodeId !== undefined) entry.targetNodeId = d.targetNodeId;
  if (d.hint) entry.hint = d.hint;
  return entry;
}

function cozeOf(score: ScoredResponse, name: string, githubToken: string, cozePackage: Exporters["cozePackage"]): ReportRow["coze"] {
  const json = score.parsed.json;
  const built = json.ok ? cozePackage(json.value, name, { githubToken }) : null;
  if (built?.ok) return { bytes: built.value.bytes };
  return { skipped: built ? (built.issues[0]?.code ?? "unknown") : "no-workflow-json" };
}

/** The response's entry in the JSON report, its keys in the report's order. */
function responseJson(model: string, item: RunItem, domain: string, score: ScoredResponse) {
  const entry: {
    model: string;
    task: string;
    round: number;
    domain: string;
    officialFailStep: ScoredResponse["officialFailStep"];
    ruleJudge: boolean | null;
    failStep: ScoredResponse["failStep"];
    passed: boolean;
    recorded?: { valid: boolean; failStep: RunRecord["fail_step"] | null };
    repaired?: { applied: string[]; officialFailStep: ScoredResponse["officialFailStep"]; ruleJudge: boolean | null; failStep: ScoredResponse["failStep"]; passed: boolean };
    diagnostics?: ReturnType<typeof diagnosticJson>[];
  } = {
    model,
    task: item.task,
    round: item.round,
    domain,
    officialFailStep: score.officialFailStep,
    ruleJudge: score.ruleJudge ? score.ruleJudge.verdict : null,
    failStep: score.failStep,
    passed: score.passed,
  };
  if (item.recorded) entry.recorded = { valid: item.recorded.valid, failStep: item.recorded.fail_step ?? null };
  const repaired = score.repaired;
  const applied: string[] = [];
  for (const repair of repaired.applied) applied.push(repair.code);
  entry.repaired = {
    applied,
    officialFailStep: repaired.officialFailStep,
    ruleJudge: repaired.ruleJudge ? repaired.ruleJudge.verdict : null,
    failStep: repaired.failStep,
    passed: repaired.passed,
  };
  const diagnostics: ReturnType<typeof diagnosticJson>[] = [];
  for (const d of score.diagnostics) diagnostics.push(diagnosticJson(d));
  entry.diagnostics = diagnostics;
  return entry;
}

/** What the summary and the exports read of a response. */
function reportRow(model: string, item: RunItem, domain: string, score: ScoredResponse, context: ScoringContext): ReportRow {
  const row: ReportRow = {
    model,
    task: item.task,
    round: item.round,
    domain,
    recorded: item.recorded ? { valid: item.recorded.valid } : null,
    score: {
      passed: score.passed,
      failStep: score.failStep,
      diagnostics: score.diagnostics.map(({ code, category }) => ({ code, category })),
      repaired: { passed: score.repaired.passed, failStep: score.repaired.failStep },
    },
  };
  const exporters = context.exporters;
  if (exporters) {
    const name = difyAppName(item.task, item.round);
    if (context.yaml) row.yaml = score.conversion ? exporters.toDifyYaml(buildDifyDsl(score.conversion, name)) : null;
    if (context.coze) row.coze = cozeOf(score, name, context.coze.githubToken, exporters.cozePackage);
  }
  return row;
}

/** Scores responses of one run file against the benchmark's turns. */
function scoreItems(model: string, items: readonly RunItem[], context: ScoringContext): ScoredPart {
  const rows: ReportRow[] = [];
  const responses: ReturnType<typeof responseJson>[] = [];
  let skipped = 0;
  for (const item of items) {
    const turn = context.turns.get(`${item.task}_${item.round}`);
    if (!turn) {
      skipped += 1;
      continue;
    }
    const domain = context.domains.get(item.task) ?? "?";
    const score = scoreResponse(item.input, turn);
    rows.push(reportRow(model, item, domain, score, context));
    if (context.json) responses.push(responseJson(model, item, domain, score));
  }
  // Serialised and encoded here, on the thread that scored them: the main thread only joins the bytes. A worker sends
  // them without a copy (the encoder's buffer is the array's own); the brackets are dropped by a view.
  const responsesJson = context.json ? UTF8.encode(JSON.stringify(responses)).subarray(1, -1) : null;
  return { rows, responsesJson, skipped };
}

const modelOf = (file: string): string => path.basename(file, ".json");
const UTF8 = new TextEncoder();
const COMMA = UTF8.encode(",");

/** Reads one run file and scores every response of it against the benchmark's turns. */
function scoreRunFile(file: string, context: ScoringContext): ScoredRunFile {
  return joinParts(file, [scoreItems(modelOf(file), readRunItems(file), context)], context.json);
}

/** A file's chunks joined in order, as scoreRunFile would have scored it. */
function joinParts(file: string, parts: readonly ScoredPart[], json: boolean): ScoredRunFile {
  const rows: ReportRow[] = [];
  const texts: Uint8Array[] = [];
  let skipped = 0;
  for (const part of parts) {
    for (const row of part.rows) rows.push(row);
    if (part.responsesJson && part.responsesJson.length > 0) texts.push(part.responsesJson);
    skipped += part.skipped;
  }
  return { model: modelOf(file), file, rows, responsesJson: json ? texts : null, skipped };
}

/** The report's `responses` entries of `runs` in order, as pieces of UTF-8 text to write one after the other. */
export function responsesJsonPieces(runs: readonly Pick<ScoredRunFile, "responsesJson">[]): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (const run of runs) {
    for (const text of run.responsesJson ?? []) {
      if (pieces.length > 0) pieces.push(COMMA);
      pieces.push(text);
    }
  }
  return pieces;
}

/**
 * Where threads meet: [0] the next file slot to open; [1 + slot] the next chunk of that file to claim; [1 + n + slot]
 * its number of chunks plus one, once read (0 before, or when it could not be read).
 */
function sharedCounters(files: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * (1 + 2 * files)));
}

/** This thread's share of the work: files opened in slot order, then chunks of files others are still scoring. */
function scoreShare(files: readonly string[], shared: Int32Array, context: ScoringContext, emit: (slot: number, outcome: ChunkOutcome) => void): void {
  const n = files.length;
  const scoreChunks = (slot: number, items: readonly RunItem[], chunks: number): void => {
    const model = modelOf(files[slot] as string);
    for (let chunk = Atomics.add(shared, 1 + slot, 1); chunk < chunks; chunk = Atomics.add(shared, 1 + slot, 1)) {
      emit(slot, { ok: true, chunk, value: scoreItems(model, items.slice(chunk * CHUNK, (chunk + 1) * CHUNK), context) });
    }
  };
  for (let slot = Atomics.add(shared, 0, 1); slot < n; slot = Atomics.add(shared, 0, 1)) {
    let items: RunItem[];
    try {
      items = readRunItems(files[slot] as string);
    } catch (error) {
      if (!(error instanceof UsageError)) throw error;
      emit(slot, { ok: false, message: error.message });
      continue;
    }
    const chunks = Math.ceil(items.length / CHUNK);
    Atomics.store(shared, 1 + n + slot, chunks + 1);
    scoreChunks(slot, items, chunks);
  }
  // The files opened last have the most chunks left.
  for (let slot = n - 1; slot >= 0; slot--) {
    const chunks = Atomics.load(shared, 1 + n + slot) - 1;
    if (chunks - Atomics.load(shared, 1 + slot) < MIN_SHARED_CHUNKS) continue;
    let items: RunItem[];
    try {
      items = readRunItems(files[slot] as string);
    } catch {
      continue; // Read once already: the thread that opened it scores the rest.
    }
    scoreChunks(slot, items, chunks);
  }
}

function scoreOutcome(file: string, context: ScoringContext): FileOutcome {
  try {
    return { ok: true, value: scoreRunFile(file, context) };
  } catch (error) {
    if (error instanceof UsageError) return { ok: false, message: error.message };
    throw error;
  }
}

// -- threads -------------------------------------------------------------------------------------------------------

/** Set by scripts/run-cli.cjs: starts a worker thread on the bundle this process runs. */
interface Launcher {
  startWorker(options: WorkerOptions): Worker;
}

/** What a worker is sent once the main thread knows the files and the benchmark. */
interface WorkerJob {
  /** The files in the order threads take them. */
  files: string[];
  /** The shared counters (sharedCounters). */
  shared: Int32Array;
  turns: Map<string, ScoreTurn>;
  domains: Map<string, string>;
  json: boolean;
  yaml: boolean;
  coze: ScoreContext["coze"];
}

type WorkerMessage = { slot: number; outcome: ChunkOutcome } | { done: true } | { crashed: string };

const WORKER_ROLE = "score-run-files";

/** Threads to use by default: one per core, at most MAX_THREADS. */
export function defaultThreads(): number {
  return Math.min(MAX_THREADS, availableParallelism());
}

/** Largest first, so the last file a thread takes is a small one. */
function scheduleOrder(files: readonly string[]): number[] {
  const sizes = files.map((file) => {
    try {
      return statSync(file).size;
    } catch {
      return 0;
    }
  });
  return files.map((_, i) => i).sort((a, b) => (sizes[b] ?? 0) - (sizes[a] ?? 0) || a - b);
}

export interface ScoringThreads {
  /**
   * Scores `files` on these threads and the main thread and returns the results in file order. A file that cannot
   * be read becomes a UsageError for the first such file, as when the files were read in turn.
   */
  score(files: readonly string[], context: ScoreContext): Promise<ScoredRunFile[]>;
  /** Stops the workers (after a failure before or during scoring). */
  close(): void;
}

/**
 * Starts `threads - 1` worker threads at once, so that they boot while the main thread reads the benchmark. Without
 * the launcher (the source run by tsx) there are none: the main thread scores alone.
 */
export function startScoringThreads(threads: number): ScoringThreads {
  const launcher = (globalThis as { studioCliLauncher?: Launcher }).studioCliLauncher;
  const workers: Worker[] = [];
  for (let i = 1; launcher && i < threads; i++) {
    try {
      workers.push(launcher.startWorker({ workerData: { role: WORKER_ROLE }, stdout: false, stderr: false }));
    } catch {
      break;
    }
  }
  return {
    close: () => workers.forEach((worker) => void worker.terminate()),
    async score(files, given) {
      const order = scheduleOrder(files);
      const scheduled = order.map((index) => files[index] as string);
      const shared = sharedCounters(files.length);
      const job: WorkerJob = {
        files: scheduled,
        shared,
        turns: new Map([...given.turns].map(([key, turn]) => [key, { inputVars: turn.inputVars, outputVars: turn.outputVars, keyNodes: turn.keyNodes }])),
        domains: new Map(given.domains),
        json: given.json,
        yaml: given.yaml,
        coze: given.coze,
      };
      const parts: ScoredPart[][] = files.map(() => []);
      const failures: (string | undefined)[] = new Array(files.length);
      const record = (slot: number, outcome: ChunkOutcome): void => {
        const index = order[slot] as number;
        if (outcome.ok) (parts[index] as ScoredPart[])[outcome.chunk] = outcome.value;
        else failures[index] = outcome.message;
      };
      const running = workers.map((worker) => runWorker(worker, job, record));
      const context = await scoringContext(given);
      // The workers' results are taken in between this thread's chunks, instead of all after its last one.
      scoreShare(scheduled, shared, context, (slot, outcome) => {
        record(slot, outcome);
        for (const worker of running) worker.receivePending();
      });
      await Promise.all(running.map((worker) => worker.finished));
      const slotOf: number[] = new Array(files.length);
      order.forEach((index, slot) => (slotOf[index] = slot));
      const results: ScoredRunFile[] = [];
      for (let index = 0; index < files.length; index++) {
        const file = files[index] as string;
        const failure = failures[index];
        if (failure !== undefined) throw new UsageError(failure);
        const chunks = Atomics.load(shared, 1 + files.length + (slotOf[index] as number)) - 1;
        const got = parts[index] as ScoredPart[];
        // A file a worker opened or shared but did not finish (it failed to start or died) is scored again here.
        if (chunks >= 0 && got.filter(Boolean).length === chunks) {
          results.push(joinParts(file, got, context.json));
          continue;
        }
        const outcome = scoreOutcome(file, context);
        if (!outcome.ok) throw new UsageError(outcome.message);
        results.push(outcome.value);
      }
      return results;
    },
  };
}

interface RunningWorker {
  /** Settles once the worker said it is done (or could not start, or died). */
  finished: Promise<void>;
  /** Handles the messages that have arrived, at once: the main thread polls between its own chunks. */
  receivePending(): void;
}

/** Sends `job` to the worker; its messages come back on a port of their own, which the main thread can poll. */
function runWorker(worker: Worker, job: WorkerJob, record: (slot: number, outcome: ChunkOutcome) => void): RunningWorker {
  const { port1: results, port2: workerSide } = new MessageChannel();
  let receivePending = (): void => {};
  const finished = new Promise<void>((resolve, reject) => {
    const handle = (message: WorkerMessage): void => {
      if ("crashed" in message) reject(new Error(message.crashed));
      else if ("done" in message) resolve();
      else record(message.slot, message.outcome);
    };
    receivePending = () => {
      for (let received = receiveMessageOnPort(results); received; received = receiveMessageOnPort(results)) handle(received.message as WorkerMessage);
    };
    results.on("message", handle);
    // Done when it says so; one that could not start or died leaves its files to the main thread. A worker ends once
    // it has said so, and its exit may be seen before its last messages: they are in the port already, so read first.
    worker.on("error", () => {
      receivePending();
      resolve();
    });
    worker.on("exit", () => {
      receivePending();
      resolve();
    });
  });
  // The port must not keep the process alive once the workers are done.
  void finished.finally(() => results.close());
  worker.postMessage({ ...job, results: workerSide }, [workerSide]);
  return { finished, receivePending: () => receivePending() };
}

/** The worker side, when this thread is a scoring worker: its share of the files, as the main thread's. */
export function runScoringWorkerIfAny(): boolean {
  if (isMainThread || (workerData as { role?: string } | null)?.role !== WORKER_ROLE || !parentPort) return false;
  const port = parentPort;
  port.once("message", async (job: WorkerJob & { results: MessagePort }) => {
    const results = job.results;
    try {
      const context = await scoringContext({ turns: job.turns, domains: job.domains, json: job.json, yaml: job.yaml, coze: job.coze });
      scoreShare(job.files, job.shared, context, (slot, outcome) => {
        const bytes = outcome.ok ? outcome.value.responsesJson : null;
        results.postMessage({ slot, outcome } satisfies WorkerMessage, bytes ? [bytes.buffer as ArrayBuffer] : []);
      });
      results.postMessage({ done: true } satisfies WorkerMessage);
      // Its teardown (a whole heap to free) then overlaps the main thread's last chunks and report, instead of
      // following them; the messages already posted are delivered all the same.
      process.exit(0);
    } catch (error) {
      results.postMessage({ crashed: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies WorkerMessage);
    }
  });
  return true;
}
