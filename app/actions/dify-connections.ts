"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { isUniqueViolation } from "@/lib/server/errors";
import {
  createDifyConnection,
  deleteDifyConnection,
  difyConnectionFieldsSchema,
  testDifyConnection,
  updateDifyConnection,
  type DifyConnectionTest,
  type DifyConnectionView,
} from "@/lib/server/dify-connections/connections";

// The password is write-only: required when adding, an empty field keeps the stored one when editing.
const createSchema = difyConnectionFieldsSchema.extend({ password: z.string().min(1, "the Dify account's password").max(500) });
const updateSchema = difyConnectionFieldsSchema.extend({ id: z.string().min(1).max(100), password: z.string().max(500).optional() });
const idSchema = z.object({ id: z.string().min(1).max(100) });

const duplicateLabel = { ok: false as const, error: "invalid" as const, message: "Another Dify connection has this name.", fieldErrors: { label: "Another Dify connection has this name." } };

const create = authorizedAction("manageEndpoints", createSchema, async ({ password, ...fields }, user): Promise<ActionResult<DifyConnectionView>> => {
  try {
    const view = await createDifyConnection(database(), user, fields, password);
    revalidatePath("/settings/dify");
    return { ok: true, value: view };
  } catch (error) {
    if (isUniqueViolation(error)) return duplicateLabel;
    throw error;
  }
});

const update = authorizedAction("manageEndpoints", updateSchema, async ({ id, password, ...fields }, user): Promise<ActionResult<DifyConnectionView>> => {
  try {
    const view = await updateDifyConnection(database(), user, id, fields, password || null);
    if (!view) return { ok: false, error: "failed", message: "That Dify connection no longer exists." };
    revalidatePath("/settings/dify");
    return { ok: true, value: view };
  } catch (error) {
    if (isUniqueViolation(error)) return duplicateLabel;
    throw error;
  }
});

const remove = authorizedAction("manageEndpoints", idSchema, async ({ id }, user): Promise<ActionResult<null>> => {
  const deleted = await deleteDifyConnection(database(), user, id);
  if (!deleted) return { ok: false, error: "failed", message: "That Dify connection no longer exists." };
  revalidatePath("/settings/dify");
  return { ok: true, value: null };
});

const test = authorizedAction("manageEndpoints", idSchema, async ({ id }, user): Promise<ActionResult<DifyConnectionTest>> => {
  const outcome = await testDifyConnection(database(), user, id);
  if (!outcome) return { ok: false, error: "failed", message: "That Dify connection no longer exists." };
  return { ok: true, value: outcome };
});

export async function createDifyConnectionAction(input: z.input<typeof createSchema>) {
  return create(input);
}

export async function updateDifyConnectionAction(input: z.input<typeof updateSchema>) {
  return update(input);
}

export async function deleteDifyConnectionAction(input: { id: string }) {
  return remove(input);
}

/** Signs in to Dify with the stored account and reports whether it worked. */
export async function testDifyConnectionAction(input: { id: string }) {
  return test(input);
}
