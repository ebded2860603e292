import "server-only";
// Account administration for the Users page: every function checks that the actor may administer, and none leaves
// the instance without an active admin (an admin cannot demote or disable the last one, themselves included).
import { randomBytes } from "node:crypto";
import { isRole, ROLES, type Role } from "@/lib/auth/roles";
import { err, ok, type Result } from "@/lib/result";
import { assertAllowed } from "../authz";
import type { Database } from "../db";
import { hashPassword } from "../passwords";
import type { SessionUser } from "../session";
import { createUser, type AccountUser } from "../users";

export interface AccountRow {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  disabled: boolean;
  createdAt: Date;
}

/** A password for an invitation or a reset: shown once to the admin, who hands it over. */
const temporaryPassword = (): string => randomBytes(18).toString("base64url");

export async function listAccounts(db: Database, actor: SessionUser | null): Promise<AccountRow[]> {
  assertAllowed(actor, "administer");
  const rows = await db.user.findMany({ orderBy: { email: "asc" }, select: { id: true, email: true, name: true, role: true, disabledAt: true, createdAt: true } });
  return rows.map((row) => ({ id: row.id, email: row.email, name: row.name, role: isRole(row.role) ? row.role : "viewer", disabled: row.disabledAt !== null, createdAt: row.createdAt }));
}

/** Creates an account with a temporary password the admin passes on; the password is returned once, never stored readable. */
export async function inviteAccount(
  db: Database,
  actor: SessionUser | null,
  input: { email: string; name?: string; role: string },
): Promise<Result<{ user: AccountUser; temporaryPassword: string }, string>> {
  assertAllowed(actor, "administer");
  const password = temporaryPassword();
  const created = await createUser(db, { email: input.email, name: input.name?.trim() || undefined, role: input.role as Role, password });
  return created.ok ? ok({ user: created.value, temporaryPassword: password }) : created;
}

async function otherActiveAdmins(db: Database, userId: string): Promise<number> {
  return db.user.count({ where: { role: "admin", disabledAt: null, id: { not: userId } } });
}

async function accountOrIssue(db: Database, userId: string) {
  return db.user.findUnique({ where: { id: userId }, select: { id: true, email: true, role: true, disabledAt: true } });
}

/** Changes a role; the account's sessions end so the new role applies at once. */
export async function changeAccountRole(db: Database, actor: SessionUser | null, userId: string, role: string): Promise<Result<null, string>> {
  assertAllowed(actor, "administer");
  if (!isRole(role)) return err(`role: must be one of ${ROLES.join(", ")}`);
  const account = await accountOrIssue(db, userId);
  if (!account) return err("user: no such account");
  if (account.role === role) return ok(null);
  if (account.role === "admin" && !account.disabledAt && (await otherActiveAdmins(db, userId)) === 0) {
    return err("role: this is the only active admin; make another account admin first");
  }
  await db.user.update({ where: { id: userId }, data: { role, sessionVersion: { increment: 1 } } });
  return ok(null);
}

/** Replaces the password with a new temporary one (returned once) and ends the account's sessions. */
export async function resetAccountPassword(db: Database, actor: SessionUser | null, userId: string): Promise<Result<{ email: string; temporaryPassword: string }, string>> {
  assertAllowed(actor, "administer");
  const account = await accountOrIssue(db, userId);
  if (!account) return err("user: no such account");
  const password = temporaryPassword();
  await db.user.update({ where: { id: userId }, data: { passwordHash: await hashPassword(password), sessionVersion: { increment: 1 } } });
  return ok({ email: account.email, temporaryPassword: password });
}

/** Disables (sessions and API tokens stop working, sign-in is refused) or enables an account. */
export async function setAccountDisabled(db: Database, actor: SessionUser | null, userId: string, disabled: boolean): Promise<Result<null, string>> {
  assertAllowed(actor, "administer");
  const account = await accountOrIssue(db, userId);
  if (!account) return err("user: no such account");
  if (disabled && actor?.id === userId) return err("user: you cannot disable your own account");
  if (disabled && account.role === "admin" && (await otherActiveAdmins(db, userId)) === 0) return err("user: this is the only active admin");
  if (disabled === (account.disabledAt !== null)) return ok(null);
  await db.user.update({ where: { id: userId }, data: disabled ? { disabledAt: new Date(), sessionVersion: { increment: 1 } } : { disabledAt: null } });
  return ok(null);
}
