// Signs tests in as one role (or nobody) by standing in for next-auth's session lookup, so route handlers and server
// actions run their real access checks against real user rows. Use with
// `vi.mock("next-auth", async () => (await import("<path>/session-mock")).nextAuthMock)` (vi.mock is hoisted; the mock reads `signedIn` at call time).
import { ROLES, type Role } from "@/lib/auth/roles";
import type { Database } from "@/lib/server/db";

export type Actor = Role | "anonymous";
export const ACTORS: readonly Actor[] = [...ROLES, "anonymous"];

const state: { userId: string | null; sessionVersion: number | undefined } = { userId: null, sessionVersion: undefined };

export const nextAuthMock = {
  getServerSession: async () => (state.userId ? { user: { id: state.userId, email: "", name: null, role: "viewer", sessionVersion: state.sessionVersion } } : null),
  default: () => undefined,
};

/** Creates one user per role (ids `user-<role>`) if missing. */
export async function ensureRoleUsers(db: Database): Promise<void> {
  for (const role of ROLES) {
    await db.user.upsert({
      where: { id: `user-${role}` },
      update: { role },
      create: { id: `user-${role}`, email: `${role}@matrix.test`, role, passwordHash: "x" },
    });
  }
}

/** Signs in as a given user id with the session version its session was issued under. */
export function signInAsUser(userId: string, sessionVersion: number): void {
  state.userId = userId;
  state.sessionVersion = sessionVersion;
}

export function signInAs(actor: Actor, sessionVersion?: number): void {
  state.userId = actor === "anonymous" ? null : `user-${actor}`;
  state.sessionVersion = sessionVersion;
}
