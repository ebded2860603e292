import "server-only";
// User accounts: creation, role changes and credential checks. Callers (CLI, seed, auth) are trusted server code;
// the web UI never reaches these without an admin check in its action.
import { z } from "zod";
import { isRole, ROLES, type Role } from "@/lib/auth/roles";
import type { Result } from "@/lib/result";
import type { Database } from "./db";
import { hashPassword, MIN_PASSWORD_LENGTH, verifyPassword } from "./passwords";

// A bcrypt hash of a throwaway string, compared against when the email is unknown.
const TIMING_DUMMY_HASH = "$2b$11$h9hXDdL4xBr9L2W1M0wybeDoUGn5GSeaOTcYtgR24TFkiMgAUbH1W";

export interface AccountUser {
  id: string;
  email: string;
  name: string | null;
  role: Role;
  /** Sessions issued under another version are refused (see endSessions). */
  sessionVersion: number;
}

/** Whether an account was disabled by an admin: it cannot sign in and nothing acts for it. */
const isDisabled = (row: { disabledAt: Date | null }): boolean => row.disabledAt !== null;

export const newUserSchema = z.object({
  email: z.email("must be a valid email address").transform((email) => email.toLowerCase()),
  password: z.string().min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`),
  role: z.enum(ROLES, { message: `must be one of ${ROLES.join(", ")}` }),
  name: z.string().trim().min(1).max(100).optional(),
});

export type NewUser = z.input<typeof newUserSchema>;

function toAccountUser(row: { id: string; email: string; name: string | null; role: string; sessionVersion: number }): AccountUser {
  return { id: row.id, email: row.email, name: row.name, role: isRole(row.role) ? row.role : "viewer", sessionVersion: row.sessionVersion };
}

/** Ends every session of a user: sessions carry the version they were issued under, and this moves it on. */
export async function endSessions(db: Database, userId: string): Promise<void> {
  await db.user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
}

export async function createUser(db: Database, input: NewUser): Promise<Result<AccountUser, string>> {
  const parsed = newUserSchema.safeParse(input);
  if (!parsed.success) {
    return { ok: false, issues: parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`) };
  }
  const existing = await db.user.findUnique({ where: { email: parsed.data.email } });
  if (existing) return { ok: false, issues: [`email: a user with ${parsed.data.email} already exists`] };
  const row = await db.user.create({
    data: {
      email: parsed.data.email,
      name: parsed.data.name ?? null,
      role: parsed.data.role,
      passwordHash: await hashPassword(parsed.data.password),
    },
  });
  return { ok: true, value: toAccountUser(row) };
}

export async function setUserRole(db: Database, email: string, role: string): Promise<Result<AccountUser, string>> {
  if (!isRole(role)) return { ok: false, issues: [`role: must be one of ${ROLES.join(", ")}`] };
  const existing = await db.user.findUnique({ where: { email: email.toLowerCase() } });
  if (!existing) return { ok: false, issues: [`email: no user with ${email}`] };
  const row = await db.user.update({ where: { id: existing.id }, data: { role, sessionVersion: { increment: 1 } } });
  return { ok: true, value: toAccountUser(row) };
}

export async function setUserPassword(db: Database, email: string, password: string): Promise<Result<AccountUser, string>> {
  if (password.length < MIN_PASSWORD_LENGTH) {
    return { ok: false, issues: [`password: must be at least ${MIN_PASSWORD_LENGTH} characters`] };
  }
  const existing = await db.user.findUnique({ where: { email: email.toLowerCase() } });
  if (!existing) return { ok: false, issues: [`email: no user with ${email}`] };
  const row = await db.user.update({ where: { id: existing.id }, data: { passwordHash: await hashPassword(password), sessionVersion: { increment: 1 } } });
  return { ok: true, value: toAccountUser(row) };
}

export async function listUsers(db: Database): Promise<AccountUser[]> {
  const rows = await db.user.findMany({ orderBy: { email: "asc" } });
  return rows.map(toAccountUser);
}

/** An account that may act (a disabled one is null, which ends its sessions). */
export async function findUserById(db: Database, id: string): Promise<AccountUser | null> {
  const row = await db.user.findUnique({ where: { id } });
  return row && !isDisabled(row) ? toAccountUser(row) : null;
}

/** Checks an email and password; the same null for an unknown email and a wrong password. */
export async function verifyCredentials(db: Database, email: string, password: string): Promise<AccountUser | null> {
  const row = await db.user.findUnique({ where: { email: email.trim().toLowerCase() } });
  if (!row) {
    // Spend comparable time so response timing does not reveal which emails exist.
    await verifyPassword(password, TIMING_DUMMY_HASH);
    return null;
  }
  return (await verifyPassword(password, row.passwordHash)) && !isDisabled(row) ? toAccountUser(row) : null;
}
