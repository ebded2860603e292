"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";
import { createOwnApiToken, newTokenSchema, revokeApiToken, type ApiTokenView } from "@/lib/server/tokens";

const idSchema = z.object({ id: z.string().min(1).max(100) });

const create = authorizedAction("manageTokens", newTokenSchema, async (input, user): Promise<ActionResult<{ token: string; view: ApiTokenView }>> => {
  const issued = await createOwnApiToken(database(), user, input);
  if (!issued.ok) return { ok: false, error: "invalid", message: issued.issues.join("; ") };
  revalidatePath("/settings/tokens");
  return { ok: true, value: { token: issued.token, view: issued.view } };
});

const revoke = authorizedAction("manageTokens", idSchema, async ({ id }, user): Promise<ActionResult<null>> => {
  if (!(await revokeApiToken(database(), user, id))) return { ok: false, error: "failed", message: "No active token of yours has this id." };
  revalidatePath("/settings/tokens");
  return { ok: true, value: null };
});

/** Creates an access token for the signed-in user; the token comes back this once and is stored hashed. */
export async function createTokenAction(input: z.input<typeof newTokenSchema>) {
  return create(input);
}

/** Revokes one of the signed-in user's tokens (an admin: anyone's). */
export async function revokeTokenAction(input: z.input<typeof idSchema>) {
  return revoke(input);
}
