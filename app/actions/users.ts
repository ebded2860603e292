"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { ROLES } from "@/lib/auth/roles";
import { changeAccountRole, inviteAccount, resetAccountPassword, setAccountDisabled } from "@/lib/server/data/accounts";
import { authorizedAction, type ActionResult } from "@/lib/server/action";
import { database } from "@/lib/server/db";

const USERS_PAGE = "/settings/users";
const userId = z.string().min(1).max(100);
const inviteSchema = z.object({ email: z.string().trim().min(1).max(320), name: z.string().max(100).optional(), role: z.enum(ROLES) });
const roleSchema = z.object({ userId, role: z.enum(ROLES) });
const idSchema = z.object({ userId });
const disableSchema = z.object({ userId, disabled: z.boolean() });

const failed = (issues: string[]): ActionResult<never> => ({ ok: false, error: "invalid", message: issues.join("; ") });

const invite = authorizedAction("administer", inviteSchema, async (input, user): Promise<ActionResult<{ email: string; temporaryPassword: string }>> => {
  const created = await inviteAccount(database(), user, input);
  if (!created.ok) return failed(created.issues);
  revalidatePath(USERS_PAGE);
  return { ok: true, value: { email: created.value.user.email, temporaryPassword: created.value.temporaryPassword } };
});

const setRole = authorizedAction("administer", roleSchema, async ({ userId, role }, user): Promise<ActionResult<null>> => {
  const changed = await changeAccountRole(database(), user, userId, role);
  if (!changed.ok) return failed(changed.issues);
  revalidatePath(USERS_PAGE);
  return { ok: true, value: null };
});

const resetPassword = authorizedAction("administer", idSchema, async ({ userId }, user): Promise<ActionResult<{ email: string; temporaryPassword: string }>> => {
  const reset = await resetAccountPassword(database(), user, userId);
  return reset.ok ? { ok: true, value: reset.value } : failed(reset.issues);
});

const setDisabled = authorizedAction("administer", disableSchema, async ({ userId, disabled }, user): Promise<ActionResult<null>> => {
  const changed = await setAccountDisabled(database(), user, userId, disabled);
  if (!changed.ok) return failed(changed.issues);
  revalidatePath(USERS_PAGE);
  return { ok: true, value: null };
});

/** Creates an account with a temporary password, returned this once (admins only). */
export async function inviteUserAction(input: z.input<typeof inviteSchema>) {
  return invite(input);
}

/** Changes an account's role and ends its sessions (admins only; never the last active admin). */
export async function setUserRoleAction(input: z.input<typeof roleSchema>) {
  return setRole(input);
}

/** Gives an account a new temporary password, returned this once, and ends its sessions (admins only). */
export async function resetUserPasswordAction(input: z.input<typeof idSchema>) {
  return resetPassword(input);
}

/** Disables or enables an account (admins only; not one's own). */
export async function setUserDisabledAction(input: z.input<typeof disableSchema>) {
  return setDisabled(input);
}
