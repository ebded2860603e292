// What a job kind declares (its name, and the zod schemas of its params and of its items' payloads) and how its
// jobs are queued: params and payloads typed by the kind on the way in, validated once by the worker on the way out.
import type { z } from "zod";
import type { JobQueue, NewJob } from "./queue";

export interface JobKind<Params, Payload> {
  kind: string;
  /** Accepts every shape stored rows of the kind may hold, and reads them as today's. */
  paramsSchema: z.ZodType<Params>;
  payloadSchema: z.ZodType<Payload>;
}

/** A new job of `kind`, as the queue's `enqueue` takes it. */
export type NewJobOf<Params, Payload> = Omit<NewJob, "kind" | "params" | "items"> & {
  params: Params;
  items: readonly { key: string; payload: Payload }[];
};

/** Queues a job of `kind` (inside the caller's transaction, given `tx`): every job is created through `enqueue`. */
export function enqueueJob<Tx, Params, Payload>(queue: Pick<JobQueue<Tx>, "enqueue">, kind: JobKind<Params, Payload>, job: NewJobOf<Params, Payload>, tx?: Tx): Promise<string> {
  return queue.enqueue({ ...job, kind: kind.kind }, tx);
}

/** Items of `kind` added to a job of it inside the caller's transaction (see JobQueue.appendItems). */
export function appendJobItems<Tx, Params, Payload>(
  queue: Pick<JobQueue<Tx>, "appendItems">,
  tx: Tx,
  _kind: JobKind<Params, Payload>,
  jobId: string,
  items: readonly { key: string; payload: Payload }[],
): Promise<void> {
  return queue.appendItems(tx, jobId, items);
}
