// GET /api/auth/session describes a session only while the database still honours it: after a sign-out elsewhere,
// a password change or a role change it answers `{}` and clears the cookie, as every page already refuses it.
import NextAuth from "next-auth";
import { encode } from "next-auth/jwt";
import { beforeAll, describe, expect, it } from "vitest";
import { authOptions } from "@/lib/server/auth";
import { serverEnv } from "@/lib/server/env";
import { createUser, endSessions, setUserPassword } from "@/lib/server/users";
import { emptyDatabase, testDatabase } from "../../support/database";

/**
 * What /api/auth/session answers to this session's cookie. The route's App Router adapter needs Next's request
 * store, so the same next-auth handler and options run through its Node adapter.
 */
async function session(userId: string, sessionVersion: number): Promise<{ body: unknown; setCookie: string }> {
  const token = await encode({ secret: serverEnv().NEXTAUTH_SECRET, token: { userId, role: "viewer", sessionVersion, email: "reader@example.org" } });
  const answer = { body: undefined as unknown, headers: new Map<string, unknown>() };
  const res = {
    status: () => res,
    getHeader: (name: string) => answer.headers.get(name.toLowerCase()),
    setHeader: (name: string, value: unknown) => answer.headers.set(name.toLowerCase(), value),
    send: (body: unknown) => void (answer.body = body),
    json: (body: unknown) => void (answer.body = body),
    end: () => undefined,
  };
  const req = { method: "GET", query: { nextauth: ["session"] }, headers: { host: "127.0.0.1:3000" }, cookies: { "next-auth.session-token": token }, body: undefined };
  await (NextAuth as unknown as (req: unknown, res: unknown, options: unknown) => Promise<void>)(req, res, authOptions());
  const cookies = answer.headers.get("set-cookie");
  return { body: answer.body, setCookie: Array.isArray(cookies) ? cookies.join("\n") : String(cookies ?? "") };
}

describe("GET /api/auth/session", () => {
  const db = testDatabase();
  let user = { id: "", email: "", sessionVersion: 0 };
  beforeAll(async () => {
    await emptyDatabase(db);
    const created = await createUser(db, { email: "reader@example.org", password: "reader-pass-1", role: "viewer" });
    if (!created.ok) throw new Error("user not created");
    user = created.value;
  });

  it("describes a live session, with the role the database holds", async () => {
    const { body } = await session(user.id, user.sessionVersion);
    expect((body as { user?: unknown }).user).toMatchObject({ id: user.id, role: "viewer" });
  });

  it("answers {} and clears the cookie for a session ended by sign-out or a password change", async () => {
    const issuedAt = user.sessionVersion;
    await endSessions(db, user.id);
    const afterSignOut = await session(user.id, issuedAt);
    expect(afterSignOut.body).toEqual({});
    expect(afterSignOut.setCookie).toMatch(/next-auth\.session-token=;/);

    const current = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion;
    expect(((await session(user.id, current)).body as { user?: unknown }).user).toBeDefined();
    await setUserPassword(db, user.email, "another-pass-2");
    expect((await session(user.id, current)).body).toEqual({});
  });

  it("answers {} for a session of a deleted account", async () => {
    expect((await session("no-such-user", 0)).body).toEqual({});
  });
});
