"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { isUniqueViolation } from "@/lib/server/errors";
import {
  createEndpoint,
  deleteEndpoint,
  endpointFieldsSchema,
  testEndpointConnection,
  updateEndpoint,
  type ConnectionTest,
  type EndpointView,
} from "@/lib/server/endpoints/endpoints";

// The key is write-only: an empty field keeps the stored key; "clearApiKey" removes it.
const apiKeyField = z.string().trim().max(500).optional();

const createSchema = endpointFieldsSchema.extend({ apiKey: apiKeyField });
const updateSchema = endpointFieldsSchema.extend({ id: z.string().min(1).max(100), apiKey: apiKeyField, clearApiKey: z.boolean().default(false) });
const idSchema = z.object({ id: z.string().min(1).max(100) });

const duplicateLabel = { ok: false as const, error: "invalid" as const, message: "Another endpoint has this name.", fieldErrors: { label: "Another endpoint has this name." } };

const create = authorizedAction("manageEndpoints", createSchema, async ({ apiKey, ...fields }, user): Promise<ActionResult<EndpointView>> => {
  try {
    const view = await createEndpoint(database(), user, fields, apiKey || null);
    revalidatePath("/settings/endpoints");
    return { ok: true, value: view };
  } catch (error) {
    if (isUniqueViolation(error)) return duplicateLabel;
    throw error;
  }
});

const update = authorizedAction("manageEndpoints", updateSchema, async ({ id, apiKey, clearApiKey, ...fields }, user): Promise<ActionResult<EndpointView>> => {
  try {
    const view = await updateEndpoint(database(), user, id, fields, apiKey ? { set: apiKey } : clearApiKey ? "clear" : "keep");
    if (!view) return { ok: false, error: "failed", message: "That endpoint no longer exists." };
    revalidatePath("/settings/endpoints");
    return { ok: true, value: view };
  } catch (error) {
    if (isUniqueViolation(error)) return duplicateLabel;
    throw error;
  }
});

const remove = authorizedAction("manageEndpoints", idSchema, async ({ id }, user): Promise<ActionResult<null>> => {
  const deleted = await deleteEndpoint(database(), user, id);
  if (!deleted) return { ok: false, error: "failed", message: "That endpoint no longer exists." };
  revalidatePath("/settings/endpoints");
  return { ok: true, value: null };
});

const test = authorizedAction("manageEndpoints", idSchema, async ({ id }, user): Promise<ActionResult<ConnectionTest>> => {
  const outcome = await testEndpointConnection(database(), user, id);
  if (!outcome) return { ok: false, error: "failed", message: "That endpoint no longer exists." };
  return { ok: true, value: outcome };
});

export async function createEndpointAction(input: z.input<typeof createSchema>) {
  return create(input);
}

export async function updateEndpointAction(input: z.input<typeof updateSchema>) {
  return update(input);
}

export async function deleteEndpointAction(input: { id: string }) {
  return remove(input);
}

/** Sends one tiny uncached call to the endpoint and reports whether it answered. */
export async function testEndpointAction(input: { id: string }) {
  return test(input);
}
