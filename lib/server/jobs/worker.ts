import "server-only";
// A job worker: leases items of active jobs within each job's concurrency limit, runs them with the handler of the
// job's kind, keeps their leases alive, and records each outcome before letting the lease go.
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Database } from "../db";
import type { CommitResults, ItemFailure, ItemUsage, JobQueue, LeasedItem } from "./queue";
import type { QueueTx } from "./sqlite-queue";

export interface ActiveJob {
  id: string;
  kind: string;
  endpointId: string | null;
  refresh: boolean;
  params: unknown;
}

export interface ItemContext {
  db: Database;
  job: ActiveJob;
  item: LeasedItem;
  /** Aborted when the lease is lost or the job is cancelled: stop calling out. */
  signal: AbortSignal;
}

export type ItemOutcome =
  | { ok: true; result: unknown; usage: ItemUsage; commit?: CommitResults<QueueTx> }
  | { ok: false; failure: ItemFailure };

export interface JobHandler {
  kind: string;
  /** How many of this job's items may be leased at once across all workers, and which leases count against it. */
  capacity(db: Database, job: ActiveJob): Promise<{ filter: { endpointId?: string; kind?: string }; limit: number }>;
  run(context: ItemContext): Promise<ItemOutcome>;
  /** Called once the item's outcome is recorded (done, retry, failed or lost), e.g. to close what the job works on. */
  settled?(context: Omit<ItemContext, "signal">): Promise<void>;
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
      .catch((error: unknown) => this.log(`worker: ${error instanceof Error ? error.message : String(error)}`))
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
    for (const job of await this.queue.activeJobs()) {
      const room = this.maxInFlight - this.inFlight.size;
      if (room <= 0) return;
      const handler = this.handlers.get(job.kind);
      if (!handler) continue;
      const capacity = await handler.capacity(this.db, job);
      const free = capacity.limit - (await this.queue.leasedCount(capacity.filter));
      const wanted = Math.min(room, free);
      if (wanted <= 0) continue;
      for (const item of await this.queue.lease(job.id, this.workerId, wanted, this.leaseMs)) this.launch(handler, job, item);
    }
  }

  private launch(handler: JobHandler, job: ActiveJob, item: LeasedItem): void {
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

  private async runItem(handler: JobHandler, job: ActiveJob, item: LeasedItem, signal: AbortSignal): Promise<void> {
    let outcome: ItemOutcome;
    try {
      outcome = await handler.run({ db: this.db, job, item, signal });
    } catch (error) {
      outcome = { ok: false, failure: { message: error instanceof Error ? error.message : String(error), retryable: true } };
    }
    try {
      if (outcome.ok) {
        const recorded = await this.queue.complete(item, outcome.result, outcome.usage, outcome.commit);
        if (!recorded) this.log(`worker: lost the lease of ${job.kind} item ${item.key} before recording it`);
      } else {
        const settled = await this.queue.fail(item, outcome.failure);
        this.log(`worker: ${job.kind} item ${item.key} ${settled === "retry" ? "will be retried" : settled}: ${outcome.failure.message}`);
      }
    } catch (error) {
      // The lease expires and another worker takes the item over; the call cache keeps that free.
      this.log(`worker: could not record ${job.kind} item ${item.key}: ${error instanceof Error ? error.message : String(error)}`);
    }
    await handler.settled?.({ db: this.db, job, item }).catch((error: unknown) => this.log(`worker: after ${job.kind} item ${item.key}: ${error instanceof Error ? error.message : String(error)}`));
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
      this.log(`worker: heartbeat failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
