// Access tokens on the tokens page's actions: a user makes and sees their own (the token comes back once, only its
// hash is stored), may revoke only their own, and an admin sees and revokes everyone's; revoked and expired tokens
// act for no one, and a token follows its user's current role.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createTokenAction, revokeTokenAction } from "@/app/actions/tokens";
import { sha256 } from "@/lib/server/hash";
import { listApiTokens, userOfToken } from "@/lib/server/tokens";
import { emptyDatabase, testDatabase } from "../support/database";
import { actor } from "../support/evaluation-fixtures";
import { ensureRoleUsers, signInAs } from "../support/session-mock";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../support/session-mock")).nextAuthMock }));
vi.mock("next/cache", () => ({ revalidatePath: () => undefined, revalidateTag: () => undefined }));

describe("access tokens", () => {
  const db = testDatabase();
  beforeAll(async () => {
    await emptyDatabase(db);
    await ensureRoleUsers(db);
  });

  it("each user manages their own tokens; an admin sees and revokes everyone's", async () => {
    signInAs("viewer");
    const viewers = await createTokenAction({ name: "viewer notebook", expiresDays: 30 });
    signInAs("researcher");
    const researchers = await createTokenAction({ name: "training script" });
    if (!viewers.ok || !researchers.ok) throw new Error("not created");
    expect(researchers.value.token).toMatch(/^c2w_/);
    expect(await db.apiToken.count({ where: { tokenHash: sha256(researchers.value.token) } })).toBe(1);
    expect(JSON.stringify(await db.apiToken.findMany())).not.toContain(researchers.value.token.slice(4));

    expect((await listApiTokens(db, actor("researcher"))).map((token) => token.name)).toEqual(["training script"]);
    expect((await listApiTokens(db, actor("admin"))).map((token) => [token.name, token.userEmail]).sort()).toEqual([
      ["training script", "researcher@matrix.test"],
      ["viewer notebook", "viewer@matrix.test"],
    ]);
    // Not someone else's: refused without saying whether the token exists.
    expect(await revokeTokenAction({ id: viewers.value.view.id })).toMatchObject({ ok: false, message: "No active token of yours has this id." });
    expect(await userOfToken(db, viewers.value.token)).toMatchObject({ id: "user-viewer", role: "viewer" });
    signInAs("admin");
    expect(await revokeTokenAction({ id: viewers.value.view.id })).toEqual({ ok: true, value: null });
    expect(await userOfToken(db, viewers.value.token)).toBeNull();
    expect((await listApiTokens(db, actor("admin"))).find((token) => token.name === "viewer notebook")?.state).toBe("revoked");

    // The role is the user's current one, and an expired token acts for no one.
    await db.user.update({ where: { id: "user-researcher" }, data: { role: "annotator" } });
    expect(await userOfToken(db, researchers.value.token)).toMatchObject({ role: "annotator" });
    await db.apiToken.update({ where: { id: researchers.value.view.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    expect(await userOfToken(db, researchers.value.token)).toBeNull();
    expect((await listApiTokens(db, actor("researcher"))).map((token) => token.state)).toEqual(["expired"]);
    await db.user.update({ where: { id: "user-researcher" }, data: { role: "researcher" } });
  });

  it("refuses a token without a name or with an expiry out of range, naming the field", async () => {
    signInAs("viewer");
    expect(await createTokenAction({ name: " " })).toMatchObject({ ok: false, error: "invalid", fieldErrors: { name: expect.any(String) } });
    expect(await createTokenAction({ name: "x", expiresDays: 0 })).toMatchObject({ ok: false, fieldErrors: { expiresDays: expect.any(String) } });
    signInAs("anonymous");
    expect(await createTokenAction({ name: "x" })).toMatchObject({ ok: false, error: "unauthenticated" });
  });
});
