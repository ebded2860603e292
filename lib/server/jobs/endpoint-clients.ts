import "server-only";
// Chat clients for job handlers, one per endpoint and kept while the endpoint is unchanged, so the endpoint's
// concurrency and rate limits hold across items; each remembers the endpoint's last Retry-After (cool-down).
import type { Database } from "../db";
import { chatClientFor, loadEndpointConfig, type ClientOverrides, type EndpointConfig } from "../endpoints/endpoints";
import type { ChatClient } from "../llm";
import type { ItemFailure } from "./queue";

export interface EndpointClientEntry {
  config: EndpointConfig;
  client: ChatClient;
  /** Until when the endpoint asked us to wait (its last Retry-After): items leased meanwhile go back untried. */
  coolDownUntil: number;
}

export interface EndpointClientOptions {
  /** Client retries before the item fails back to the queue (default CLIENT_RETRIES). */
  clientRetries?: number;
  clientBackoffBaseMs?: number;
}

/** What a job kind sets in place of the endpoint's defaults (see ClientOverrides). */
type ClientDefaults = Pick<ClientOverrides, "params" | "timeoutMs">;

export function endpointClients(options: EndpointClientOptions = {}, defaults: ClientDefaults = {}): (db: Database, endpointId: string) => Promise<EndpointClientEntry | null> {
  const clients = new Map<string, EndpointClientEntry>();
  return async (db, endpointId) => {
    const config = await loadEndpointConfig(db, endpointId);
    if (!config) return null;
    const cached = clients.get(endpointId);
    if (cached && cached.config.updatedAt.getTime() === config.updatedAt.getTime()) return cached;
    const entry: EndpointClientEntry = {
      config,
      coolDownUntil: 0,
      client: chatClientFor(config, {
        ...defaults,
        ...(options.clientRetries !== undefined ? { maxRetries: options.clientRetries } : {}),
        ...(options.clientBackoffBaseMs !== undefined ? { backoffBaseMs: options.clientBackoffBaseMs } : {}),
        onRetryAfter: (delayMs) => {
          entry.coolDownUntil = Math.max(entry.coolDownUntil, Date.now() + delayMs);
        },
      }),
    };
    clients.set(endpointId, entry);
    return entry;
  };
}

/** While the endpoint cools down, the item goes back untried: not a failed call, so the attempt is given back. */
export function coolDownFailure(entry: EndpointClientEntry): ItemFailure | null {
  const waitMs = entry.coolDownUntil - Date.now();
  if (waitMs <= 0) return null;
  return { message: `rate-limited: the endpoint asked to wait ${Math.ceil(waitMs / 1000)} s`, retryable: true, retryAfterMs: waitMs, refund: true };
}

/** A job's share of its endpoint: the endpoint's concurrency, counted over every job's leases on that endpoint. */
export async function endpointCapacity(db: Database, job: { endpointId: string | null }, kind: string): Promise<{ filter: { endpointId?: string; kind?: string }; limit: number }> {
  if (!job.endpointId) return { filter: { kind }, limit: 1 };
  const endpoint = await db.modelEndpoint.findUnique({ where: { id: job.endpointId }, select: { concurrency: true } });
  return { filter: { endpointId: job.endpointId }, limit: endpoint?.concurrency ?? 1 };
}
