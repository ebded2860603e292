import "server-only";
// Model endpoints and Dify connections added through the API: the settings pages' field schemas and services, with
// the pages' defaults for what the request leaves out. A label in use is a conflict.
import type { z } from "zod";
import type { Database } from "../db";
import { createDifyConnection, difyConnectionFieldsSchema } from "../dify-connections/connections";
import { createEndpoint, endpointFieldsSchema } from "../endpoints/endpoints";
import { isUniqueViolation } from "../errors";
import type { SessionUser } from "../session";
import type { createDifyConnectionSchema, createdSchema, createEndpointSchema } from "./contract";
import type { ApiOutcome } from "./evaluations";
import { fieldMessage } from "./handler";

/** The settings pages' defaults (calls at once, timeouts). */
const ENDPOINT_DEFAULTS = { temperature: 0, concurrency: 4, timeoutSeconds: 60 } as const;
const DIFY_RUN_TIMEOUT_SECONDS = 1200;

export async function createEndpointFromApi(db: Database, actor: SessionUser, body: z.output<typeof createEndpointSchema>): Promise<ApiOutcome<z.output<typeof createdSchema>>> {
  const fields = endpointFieldsSchema.safeParse({
    label: body.label,
    baseUrl: body.baseUrl,
    model: body.model,
    temperature: body.temperature ?? ENDPOINT_DEFAULTS.temperature,
    maxTokens: body.maxTokens ?? null,
    concurrency: body.concurrency ?? ENDPOINT_DEFAULTS.concurrency,
    rpm: null,
    tpm: null,
    timeoutMs: (body.timeoutSeconds ?? ENDPOINT_DEFAULTS.timeoutSeconds) * 1000,
    inputPricePerMTok: null,
    outputPricePerMTok: null,
  });
  if (!fields.success) return { ok: false, code: "invalid_field", message: fieldMessage(fields.error).replace(/^timeoutMs:/, "timeoutSeconds:") };
  try {
    const view = await createEndpoint(db, actor, fields.data, body.apiKey ?? null);
    return { ok: true, value: { id: view.id, label: view.label } };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, code: "conflict", message: "label: another model endpoint has this label." };
    throw error;
  }
}

export async function createDifyConnectionFromApi(db: Database, actor: SessionUser, body: z.output<typeof createDifyConnectionSchema>): Promise<ApiOutcome<z.output<typeof createdSchema>>> {
  const fields = difyConnectionFieldsSchema.safeParse({
    label: body.label,
    baseUrl: body.baseUrl,
    email: body.email,
    keepApps: false,
    runTimeoutMs: (body.runTimeoutSeconds ?? DIFY_RUN_TIMEOUT_SECONDS) * 1000,
  });
  if (!fields.success) return { ok: false, code: "invalid_field", message: fieldMessage(fields.error).replace(/^runTimeoutMs:/, "runTimeoutSeconds:") };
  try {
    const view = await createDifyConnection(db, actor, fields.data, body.password);
    return { ok: true, value: { id: view.id, label: view.label } };
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, code: "conflict", message: "label: another Dify connection has this label." };
    throw error;
  }
}
