// The durable job queue's contract: jobs made of keyed items, leased by workers with expiring leases.
// Storage-neutral: SQLite implements it in sqlite-queue.ts, PostgreSQL (pg-boss) in pg-queue.ts.
import type { Database } from "../db";

/** The transaction client handed to `$transaction(async (tx) => …)` callbacks, on either database. */
export type QueueTx = Omit<Database, "$extends" | "$transaction" | "$connect" | "$disconnect" | "$on">;

export const JOB_STATUSES = ["queued", "running", "paused", "cancelled", "succeeded", "failed"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export type ItemStatus = "pending" | "leased" | "done" | "failed" | "cancelled";

/** A job whose items workers may lease. */
export const LEASABLE_JOB_STATUSES = ["queued", "running"] as const satisfies readonly JobStatus[];
/** A job not finished yet: leasable, or paused with work left (the others are cancelled, succeeded or failed). */
export const UNFINISHED_JOB_STATUSES = ["queued", "running", "paused"] as const satisfies readonly JobStatus[];

export function isLeasable(status: string): boolean {
  return (LEASABLE_JOB_STATUSES as readonly string[]).includes(status);
}

export function isUnfinished(status: string): boolean {
  return (UNFINISHED_JOB_STATUSES as readonly string[]).includes(status);
}

/** A stored status read back; anything unknown reads as "failed". */
export function jobStatusOf(status: string): JobStatus {
  return JOB_STATUSES.find((known) => known === status) ?? "failed";
}

export interface NewJob {
  /**
   * A fixed id (letters, digits, hyphens) for work that must be queued at most once: a second enqueue with the same id creates nothing
   * and fails with the unique-constraint error (Prisma's P2002), even when both run at the same instant.
   */
  id?: string;
  kind: string;
  params: unknown;
  createdBy: string | null;
  /** Bypass the call cache for every call of this job. */
  refresh?: boolean;
  runId?: string | null;
  endpointId?: string | null;
  /** The evaluation the job belongs to: it waits for the job before it closes. */
  evaluationId?: string | null;
  /** Keys are unique within the job; enqueueing the same key twice is an error. */
  items: readonly { key: string; payload: unknown }[];
}

/** A job row as the queue hands it to workers. */
export interface StoredJob {
  id: string;
  kind: string;
  endpointId: string | null;
  refresh: boolean;
  /** The evaluation that queued the job, if one did. */
  evaluationId: string | null;
  params: unknown;
}

export interface LeasedItem<Payload = unknown> {
  id: string;
  jobId: string;
  key: string;
  payload: Payload;
  /** 1 on the first lease; counts every lease, including ones that expired. */
  attempt: number;
  /** The token that completes, fails or extends this lease; a lease taken over by another worker no longer matches. */
  leaseOwner: string;
  leaseExpiresAt: Date;
}

/** Usage of the calls an item made (cached calls cost nothing and are counted apart). */
export interface ItemUsage {
  calls: number;
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number | null;
  /** USD for this item's paid calls, when the endpoint has prices. */
  cost: number | null;
}

export const NO_USAGE: ItemUsage = { calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, latencyMs: null, cost: null };

/** Two usages together (latency added up; cost known when either is). */
export function addUsage(a: ItemUsage, b: ItemUsage): ItemUsage {
  return {
    calls: a.calls + b.calls,
    cachedCalls: a.cachedCalls + b.cachedCalls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    latencyMs: a.latencyMs === null && b.latencyMs === null ? null : (a.latencyMs ?? 0) + (b.latencyMs ?? 0),
    cost: a.cost === null && b.cost === null ? null : (a.cost ?? 0) + (b.cost ?? 0),
  };
}

export interface RetryPolicy {
  /** Leases an item may take in all, the first included. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 4, baseDelayMs: 1_000, maxDelayMs: 120_000 };

export interface ItemFailure {
  message: string;
  /** False for errors that another try cannot fix (bad request, missing data). */
  retryable: boolean;
  /** The server's Retry-After, in milliseconds. */
  retryAfterMs?: number | null;
  /** Nothing was attempted (the item was put back while its endpoint cools down): the attempt is not counted. */
  refund?: boolean;
  usage?: ItemUsage;
}

/**
 * Writes the item's results in the same transaction that marks it done, so a result is never recorded twice nor
 * lost after the call was made. `tx` is the storage's transaction handle (a Prisma transaction client for SQLite).
 */
export type CommitResults<Tx> = (tx: Tx) => Promise<void>;

/** A limit on live leases shared by every worker (an endpoint's concurrency), and which leases count against it. */
export interface LeaseCapacity {
  filter: { endpointId?: string; kind?: string };
  limit: number;
}

export interface JobQueue<Tx = unknown> {
  /** Creates the job and its items, in one transaction of its own or, given `tx`, in the caller's. */
  enqueue(job: NewJob, tx?: Tx): Promise<string>;
  /**
   * Adds items to an existing job inside the caller's transaction, for work that arrives while the job runs (judging
   * turns as they are generated); a finished job is reopened. Keys must be new to the job.
   */
  appendItems(tx: Tx, jobId: string, items: readonly { key: string; payload: unknown }[]): Promise<void>;
  /**
   * Leases up to `limit` due items of one job to `workerId` until now + leaseMs. Jobs not queued/running lease
   * nothing. A queued job becomes running on its first lease. With `capacity`, no more than its limit minus the live
   * leases matching its filter, counted so that workers leasing at once cannot together exceed it.
   */
  lease(jobId: string, workerId: string, limit: number, leaseMs: number, capacity?: LeaseCapacity): Promise<LeasedItem[]>;
  /** Extends the leases still held; returns the ids of items whose lease is lost or whose job stopped (abort them). */
  heartbeat(leases: readonly Pick<LeasedItem, "id" | "leaseOwner">[], leaseMs: number): Promise<string[]>;
  /** Marks the item done with its result and runs `commit` in the same transaction; false when the lease was lost. */
  complete(lease: Pick<LeasedItem, "id" | "jobId" | "leaseOwner">, result: unknown, usage: ItemUsage, commit?: CommitResults<Tx>): Promise<boolean>;
  /** Schedules a retry (exponential backoff, at least Retry-After) or, when attempts are spent, fails the item. */
  fail(lease: Pick<LeasedItem, "id" | "jobId" | "leaseOwner" | "attempt">, failure: ItemFailure): Promise<"retry" | "failed" | "lost">;
  /** Stops a job: pending items are cancelled, leased ones may finish their current call. */
  cancel(jobId: string): Promise<boolean>;
  pause(jobId: string): Promise<boolean>;
  resume(jobId: string): Promise<boolean>;
  /** Returns items whose lease expired (a crashed worker) to pending, or fails them when attempts are spent. */
  recoverExpiredLeases(now?: Date): Promise<number>;
  /** Leasable jobs a worker should look at, oldest first, with their params as stored (parsed JSON, not validated). */
  leasableJobs(): Promise<StoredJob[]>;
  /** When the next pending item of a queued/running job of these kinds becomes due; null when none is pending. */
  nextDueAt(kinds: readonly string[]): Promise<Date | null>;
  /** Unexpired leases held on items of jobs matching the filter, across all workers (concurrency limits). */
  leasedCount(filter: { endpointId?: string; kind?: string }): Promise<number>;
}

/** Exponential backoff with full jitter, never sooner than the server's Retry-After. */
export function retryDelayMs(attempt: number, policy: RetryPolicy, retryAfterMs: number | null | undefined, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = exponential / 2 + (random() * exponential) / 2;
  return Math.max(jittered, Math.min(retryAfterMs ?? 0, policy.maxDelayMs * 10));
}
