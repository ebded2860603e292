import "server-only";
// A job worker: leases items of active jobs within each job's concurrency limit, runs them with the handler of the
// job's kind, keeps their leases alive, and records each outcome before letting the lease go. The job boundary: a
// job's params and each item's payload are checked here against the kind's schemas, once, before a handler sees them.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { z } from "zod";
import type { Database } from "../db";
import type { JobKind } from "./job-kind";
import type { CommitResults, ItemFailure, ItemUsage, JobQueue, LeaseCapacity, LeasedItem, QueueTx, StoredJob } from "./queue";

/** A leasable job as its kind's handler sees it: params validated and typed. */
export interface ValidJob<Params = unknown> extends Omit<StoredJob, "params"> {
  params: Params;
}

export interface ItemContext<Params = unknown, Payload = unknown> {
  db: Database;
  job: ValidJob<Params>;
  item: LeasedItem<Payload>;
  /** The queue the item came from, for handlers that add work to jobs as results arrive. */
  queue: JobQueue<QueueTx>;
  /** Aborted when the lease is lost or the job is cancelled: stop calling out. */
  signal: AbortSignal;
}

export type ItemOutcome =
  | { ok: true; result: unknown; usage: ItemUsage; commit?: CommitResults<QueueTx> }
  | { ok: false; failure: ItemFailure };

export interface JobHandler<Params = unknown, Payload = unknown> extends JobKind<Params, Payload> {
  /** How many of this job's items may be leased at once across all workers, and which leases count against it. */
  capacity(db: Database, job: ValidJob<Params>): Promise<LeaseCapacity>;
  run(context: ItemContext<Params, Payload>): Promise<ItemOutcome>;
  /** Called once the item's outcome is recorded (done, retry, failed or lost), e.g. to close what the job works on. */
  settled?(context: Omit<ItemContext<Params, Payload>, "signal">): Promise<void>;
}

/** A job whose params its kind's schema refused: its items fail, saying why, without reaching the handler. */
type CheckedJob = { ok: true; job: ValidJob } | { ok: false; message: string };

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid";
  return issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message;
}

export interface WorkerOptions {
  workerId?: string;
  pollMs?: number;
  leaseMs?: number;
  /** Items this worker runs at once, over all jobs. */
  maxInFlight?: number;
  log?: (line: string) => void;
}

const REFILL_DELAY_MS = 5;

interface InFlight {
  lease: LeasedItem;
  controller: AbortController;
}

export class JobWorker {
  readonly workerId: string;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly maxInFlight: number;
  private readonly log: (line: string) => void;
  private readonly handlers: Map<string, JobHandler>;
  /** Params checked once per job (a job's params never change). */
  private readonly checked = new Map<string, CheckedJob>();
  private readonly inFlight = new Map<string, InFlight>();
  private readonly running = new Set<Promise<void>>();
  private timer: NodeJS.Timeout | null = null;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = true;
  private lastRecovery = 0;
  private soon = false;

  constructor(
    private readonly db: Database,
    private readonly queue: JobQueue<QueueTx>,
    handlers: readonly JobHandler[],
    options: WorkerOptions = {},
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
    this.pollMs = options.pollMs ?? 1_000;
    this.leaseMs = options.leaseMs ?? 30_000;
    this.maxInFlight = options.maxInFlight ?? 64;
    this.log = options.log ?? (() => undefined);
    this.handlers = new Map(handlers.map((handler) => [handler.kind, handler]));
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    // Often enough to keep leases and to notice a cancelled job within a few seconds.
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), Math.max(200, Math.min(5_000, Math.floor(this.leaseMs / 3))));
    this.heartbeatTimer.unref?.();
    this.schedule(0);
  }

  /** Stops leasing; in-flight items finish and are recorded. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.timer = null;
    this.heartbeatTimer = null;
    await this.ticking;
    await Promise.allSettled([...this.running]);
  }

  /**
   * Leases and runs items until no active job has a pending item left, waiting out backoffs (tests and `--once`).
   * Items leased by other workers are theirs: this returns without waiting for them.
   */
  async runUntilIdle(): Promise<void> {
    this.lastRecovery = 0;
    for (;;) {
      await this.tick();
      if (this.running.size > 0) {
        await Promise.race(this.running);
        // Let the other completions of this burst land, so one lease round refills all their slots.
        await new Promise((resolve) => setTimeout(resolve, REFILL_DELAY_MS));
        continue;
      }
      const due = await this.queue.nextDueAt([...this.handlers.keys()]);
      if (!due) return;
      await new Promise((resolve) => setTimeout(resolve, Math.max(this.pollMs, due.getTime() - Date.now())));
      this.lastRecovery = 0;
    }
  }

  /** Looks for work now (a job was just enqueued). */
  wake(): void {
    this.schedule(0);
  }

  get busy(): number {
    return this.inFlight.size;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.soon = false;
      void this.tick().finally(() => this.schedule(this.pollMs));
    }, delayMs);
    this.timer.unref?.();
  }

  private scheduleSoon(): void {
    if (this.timer && this.soon) return;
    this.soon = true;
    this.schedule(REFILL_DELAY_MS);
  }

  private tick(): Promise<void> {
    this.ticking ??= this.fill()
      .catch((error: unknown) => this.log(`worker: ${describeError(error)}`))
      .finally(() => {
        this.ticking = null;
      });
    return this.ticking;
  }

  private async fill(): Promise<void> {
    const now = Date.now();
    if (now - this.lastRecovery >= Math.min(this.leaseMs, 10_000)) {
      this.lastRecovery = now;
      const recovered = await this.queue.recoverExpiredLeases(new Date(now));
      if (recovered > 0) this.log(`worker: ${recovered} item(s) returned from expired leases`);
    }
    // Leases come in batches of at least a quarter of the slots while items are running: each lease is a transaction,
    // and on a shared database every worker's leases against one endpoint's limit take turns.
    if (this.inFlight.size > 0 && this.maxInFlight - this.inFlight.size < Math.max(1, Math.floor(this.maxInFlight / 4))) return;
    const jobs = await this.queue.leasableJobs();
    for (const id of this.checked.keys()) if (!jobs.some((job) => job.id === id)) this.checked.delete(id);
    for (const stored of jobs) {
      const room = this.maxInFlight - this.inFlight.size;
      if (room <= 0) return;
      const handler = this.handlers.get(stored.kind);
      if (!handler) continue;
      const checked = this.check(handler, stored);
      if (!checked.ok) {
        for (const item of await this.queue.lease(stored.id, this.workerId, room, this.leaseMs)) {
          await this.queue.fail(item, { message: checked.message, retryable: false });
        }
        continue;
      }
      const capacity = await handler.capacity(this.db, checked.job);
      for (const item of await this.queue.lease(stored.id, this.workerId, room, this.leaseMs, capacity)) this.launch(handler, checked.job, item);
    }
  }

  private check(handler: JobHandler, stored: StoredJob): CheckedJob {
    let checked = this.checked.get(stored.id);
    if (!checked) {
      const params = handler.paramsSchema.safeParse(stored.params);
      checked = params.success ? { ok: true, job: { ...stored, params: params.data } } : { ok: false, message: `The ${stored.kind} job's parameters are not valid (${firstIssue(params.error)}).` };
      this.checked.set(stored.id, checked);
    }
    return checked;
  }

  private launch(handler: JobHandler, job: ValidJob, item: LeasedItem): void {
    const controller = new AbortController();
    this.inFlight.set(item.id, { lease: item, controller });
    const task = this.runItem(handler, job, item, controller.signal).finally(() => {
      this.inFlight.delete(item.id);
      this.running.delete(task);
      // A finished item frees a slot: look for more work soon rather than at the next poll. The short delay lets the
      // completions of one burst share a single lease round.
      if (!this.stopped) this.scheduleSoon();
    });
    this.running.add(task);
  }

  private async runItem(handler: JobHandler, job: ValidJob, leased: LeasedItem, signal: AbortSignal): Promise<void> {
    const payload = handler.payloadSchema.safeParse(leased.payload);
    const item = payload.success ? { ...leased, payload: payload.data } : null;
    const invalid = payload.success ? null : `The ${job.kind} item's payload is not valid (${firstIssue(payload.error)}).`;
    let outcome: ItemOutcome;
    try {
      outcome = item ? await handler.run({ db: this.db, job, item, queue: this.queue, signal }) : { ok: false, failure: { message: invalid ?? "", retryable: false } };
    } catch (error) {
      outcome = { ok: false, failure: { message: error instanceof Error ? error.message : String(error), retryable: true } };
    }
    try {
      if (outcome.ok) {
        const recorded = await this.queue.complete(leased, outcome.result, outcome.usage, outcome.commit);
        if (!recorded) this.log(`worker: lost the lease of ${job.kind} item ${leased.key} before recording it`);
      } else {
        const settled = await this.queue.fail(leased, outcome.failure);
        this.log(`worker: ${job.kind} item ${leased.key} ${settled === "retry" ? "will be retried" : settled}: ${outcome.failure.message}`);
      }
    } catch (error) {
      // The lease expires and another worker takes the item over; the call cache keeps that free.
      this.log(`worker: could not record ${job.kind} item ${leased.key}: ${describeError(error)}`);
    }
    if (!item) return;
    await handler.settled?.({ db: this.db, job, item, queue: this.queue }).catch((error: unknown) => this.log(`worker: after ${job.kind} item ${item.key}: ${error instanceof Error ? error.message : String(error)}`));
  }

  private async heartbeat(): Promise<void> {
    if (this.inFlight.size === 0) return;
    try {
      const lost = await this.queue.heartbeat(
        [...this.inFlight.values()].map((entry) => entry.lease),
        this.leaseMs,
      );
      for (const id of lost) this.inFlight.get(id)?.controller.abort(new Error("The job was stopped or the lease was lost."));
    } catch (error) {
      this.log(`worker: heartbeat failed: ${describeError(error)}`);
    }
  }
}

/** A log line's account of an error: its message, else its name and code (some driver errors carry no message). */
function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return error.message.trim() || `${error.name}${typeof code === "string" ? ` ${code}` : ""}`;
}
