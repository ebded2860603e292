import "server-only";
// Who is asking, and may they? Every page, route handler and server action goes through these checks.
// The session only proves identity; the role always comes from the database row.
import { getServerSession } from "next-auth";
import { notFound, redirect } from "next/navigation";
import { cache } from "react";
import type { Permission } from "@/lib/auth/roles";
import { isAllowed } from "./authz";
import { authOptions } from "./auth";
import { database, type Database } from "./db";
import { findUserById, type AccountUser } from "./users";

/** Who is acting: id, email, name and current role (the session version stays with the session check). */
export type SessionUser = Omit<AccountUser, "sessionVersion">;

/** The signed-in user with their current role, or null (also for a session ended by sign-out). Cached per request. */
export const currentUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(authOptions());
  const userId = session?.user?.id;
  if (!userId) return null;
  const user = await findUserById(database(), userId);
  if (!user || (session.user.sessionVersion ?? 0) !== user.sessionVersion) return null;
  return user;
});

export type AccessDecision =
  | { allowed: true; user: SessionUser | null }
  | { allowed: false; reason: "unauthenticated" | "forbidden"; user: SessionUser | null };

/** Decides access without redirecting: for route handlers and server actions. */
export async function checkAccess(permission: Permission): Promise<AccessDecision> {
  const user = await currentUser();
  if (isAllowed(user, permission)) return { allowed: true, user };
  return { allowed: false, reason: user ? "forbidden" : "unauthenticated", user };
}

/**
 * For pages: returns the user when allowed, otherwise redirects to sign-in (anonymous) or to the 403 page.
 * `returnTo` is where sign-in sends the user back.
 */
export async function requirePagePermission(permission: Permission, returnTo: string): Promise<SessionUser | null> {
  const decision = await checkAccess(permission);
  if (decision.allowed) return decision.user;
  if (decision.reason === "unauthenticated") redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  redirect(`/403?from=${encodeURIComponent(returnTo)}`);
}

/** Like requirePagePermission but guarantees a signed-in user (for write pages). */
export async function requireSignedInPermission(permission: Exclude<Permission, "read">, returnTo: string): Promise<SessionUser> {
  const user = await requirePagePermission(permission, returnTo);
  if (!user) redirect(`/signin?callbackUrl=${encodeURIComponent(returnTo)}`);
  return user;
}

/**
 * For a layout above a page's loading boundary: redirects a reader who may not read (sign-in or 403) and answers 404
 * when `exists` finds no such record, both before anything streams, so neither gets a 200 with a page shell.
 */
export async function notFoundUnlessReadable(returnTo: string, exists: (db: Database, reader: SessionUser | null) => Promise<boolean>): Promise<void> {
  const reader = await requirePagePermission("read", returnTo);
  if (!(await exists(database(), reader))) notFound();
}
