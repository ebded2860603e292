// The Users page's actions: each (invite, set role, reset password, disable) answers every non-admin role and anonymous
// visitors with a refusal that changes nothing; an admin's invitation signs in with the password shown once, a role
// change ends the account's sessions, a reset replaces the password, a disabled account neither signs in nor acts
// through its sessions or tokens, and the last active admin can be neither demoted nor disabled.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { inviteUserAction, resetUserPasswordAction, setUserDisabledAction, setUserRoleAction } from "@/app/actions/users";
import { createOwnApiToken, userOfToken } from "@/lib/server/tokens";
import { findUserById, verifyCredentials } from "@/lib/server/users";
import { emptyDatabase, testDatabase } from "../support/database";
import { actor } from "../support/evaluation-fixtures";
import { ACTORS, ensureRoleUsers, signInAs } from "../support/session-mock";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../support/session-mock")).nextAuthMock }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));

describe("user administration", () => {
  const db = testDatabase();
  beforeEach(async () => {
    await emptyDatabase(db);
    await ensureRoleUsers(db);
  });

  const snapshot = async () => (await db.user.findMany({ orderBy: { id: "asc" } })).map(({ updatedAt: _updatedAt, ...row }) => row);

  it("refuses every action to every role but admin, and to anonymous visitors, changing nothing", async () => {
    const before = await snapshot();
    const actions = {
      invite: () => inviteUserAction({ email: "new@example.org", role: "admin" }),
      setRole: () => setUserRoleAction({ userId: "user-viewer", role: "admin" }),
      resetPassword: () => resetUserPasswordAction({ userId: "user-admin" }),
      disable: () => setUserDisabledAction({ userId: "user-admin", disabled: true }),
    };
    const refusals: string[] = [];
    for (const who of ACTORS.filter((name) => name !== "admin")) {
      signInAs(who);
      for (const [name, action] of Object.entries(actions)) {
        const result = await action();
        expect(result, `${who} ${name}`).toMatchObject({ ok: false, error: who === "anonymous" ? "unauthenticated" : "forbidden" });
        refusals.push(`${who} ${name}`);
      }
    }
    expect(refusals).toHaveLength(4 * 4);
    expect(await snapshot()).toEqual(before);
  });

  it("an admin invites a user who signs in with the temporary password, then changes their role, which ends their sessions", async () => {
    signInAs("admin");
    const invited = await inviteUserAction({ email: "Ana@Example.org", name: "Ana", role: "annotator" });
    if (!invited.ok) throw new Error(invited.message);
    expect(invited.value.email).toBe("ana@example.org");
    expect(invited.value.temporaryPassword.length).toBeGreaterThanOrEqual(20);
    const row = await db.user.findUniqueOrThrow({ where: { email: "ana@example.org" } });
    expect(row.passwordHash).not.toContain(invited.value.temporaryPassword);
    expect(await verifyCredentials(db, "ana@example.org", invited.value.temporaryPassword)).toMatchObject({ role: "annotator", name: "Ana" });

    expect(await inviteUserAction({ email: "ana@example.org", role: "viewer" })).toMatchObject({ ok: false, message: expect.stringMatching(/already exists/) });

    expect(await setUserRoleAction({ userId: row.id, role: "researcher" })).toEqual({ ok: true, value: null });
    const after = await db.user.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.role).toBe("researcher");
    expect(after.sessionVersion).toBe(row.sessionVersion + 1);
  });

  it("a reset replaces the password and ends the sessions", async () => {
    signInAs("admin");
    const before = await db.user.findUniqueOrThrow({ where: { id: "user-viewer" } });
    const reset = await resetUserPasswordAction({ userId: "user-viewer" });
    if (!reset.ok) throw new Error(reset.message);
    expect(reset.value.email).toBe("viewer@matrix.test");
    expect(await verifyCredentials(db, "viewer@matrix.test", reset.value.temporaryPassword)).toMatchObject({ id: "user-viewer" });
    expect((await db.user.findUniqueOrThrow({ where: { id: "user-viewer" } })).sessionVersion).toBe(before.sessionVersion + 1);
  });

  it("a disabled account cannot sign in, its sessions and tokens stop acting; enabling restores sign-in", async () => {
    signInAs("admin");
    const password = await resetUserPasswordAction({ userId: "user-researcher" });
    if (!password.ok) throw new Error(password.message);
    const token = await createOwnApiToken(db, actor("researcher"), { name: "script" });
    if (!token.ok) throw new Error(token.issues.join());
    expect(await userOfToken(db, token.token)).toMatchObject({ id: "user-researcher" });

    expect(await setUserDisabledAction({ userId: "user-researcher", disabled: true })).toEqual({ ok: true, value: null });
    expect(await verifyCredentials(db, "researcher@matrix.test", password.value.temporaryPassword)).toBeNull();
    expect(await findUserById(db, "user-researcher")).toBeNull();
    expect(await userOfToken(db, token.token)).toBeNull();
    signInAs("researcher");
    expect(await inviteUserAction({ email: "x@example.org", role: "viewer" })).toMatchObject({ ok: false, error: "unauthenticated" });

    signInAs("admin");
    expect(await setUserDisabledAction({ userId: "user-researcher", disabled: false })).toEqual({ ok: true, value: null });
    expect(await verifyCredentials(db, "researcher@matrix.test", password.value.temporaryPassword)).toMatchObject({ id: "user-researcher" });
  });

  it("never leaves the instance without an active admin, and an admin cannot disable themselves", async () => {
    signInAs("admin");
    const before = await snapshot();
    expect(await setUserRoleAction({ userId: "user-admin", role: "viewer" })).toMatchObject({ ok: false, message: expect.stringMatching(/only active admin/) });
    expect(await setUserDisabledAction({ userId: "user-admin", disabled: true })).toMatchObject({ ok: false, message: expect.stringMatching(/your own account/) });
    expect(await setUserRoleAction({ userId: "user-viewer", role: "owner" as never })).toMatchObject({ ok: false, error: "invalid" });
    expect(await snapshot()).toEqual(before);
    // With a second admin, the first may step down.
    expect(await setUserRoleAction({ userId: "user-researcher", role: "admin" })).toEqual({ ok: true, value: null });
    expect(await setUserRoleAction({ userId: "user-admin", role: "viewer" })).toEqual({ ok: true, value: null });
  });
});
