import "server-only";
// Authorization beside every query: data functions call these with the acting user before touching the database.
// Pages and actions check first for a good message; these checks make a forgotten one fail closed.
import { can, type Permission } from "@/lib/auth/roles";
import { serverEnv } from "./env";
import type { SessionUser } from "./session";

export class AuthorizationError extends Error {
  constructor(
    readonly permission: Permission,
    readonly actor: SessionUser | null,
  ) {
    super(actor ? `${actor.role} may not ${permission}` : `sign in to ${permission}`);
    this.name = "AuthorizationError";
  }
}

/** The actor's role allows `permission` (anonymous visitors may read when PUBLIC_READ is on). */
export function isAllowed(actor: SessionUser | null, permission: Permission): boolean {
  if (!actor) return permission === "read" && serverEnv().PUBLIC_READ;
  return can(actor.role, permission);
}

export function assertAllowed(actor: SessionUser | null, permission: Permission): void {
  if (!isAllowed(actor, permission)) throw new AuthorizationError(permission, actor);
}
