import { beforeEach, describe, expect, it } from "vitest";
import { accountsWithDemoPasswords, DEMO_ACCOUNTS, seedDemoUsers } from "@/lib/server/demo-users";
import { createUser, listUsers, setUserPassword, setUserRole, verifyCredentials } from "@/lib/server/users";
import { emptyDatabase, testDatabase } from "../support/database";

describe("user accounts on a real SQLite database", () => {
  const db = testDatabase();
  beforeEach(() => emptyDatabase(db));

  it("creates a user whose password verifies and whose hash is not the password", async () => {
    const created = await createUser(db, { email: "Ana@Example.org", password: "correct horse", role: "researcher" });
    expect(created.ok).toBe(true);
    const row = await db.user.findUniqueOrThrow({ where: { email: "ana@example.org" } });
    expect(row.passwordHash).not.toContain("correct horse");
    expect(await verifyCredentials(db, "ana@example.org", "correct horse")).toMatchObject({ role: "researcher" });
    expect(await verifyCredentials(db, "ana@example.org", "wrong horse")).toBeNull();
    expect(await verifyCredentials(db, "nobody@example.org", "correct horse")).toBeNull();
  });

  it("rejects duplicates, bad roles and short passwords with field-named messages", async () => {
    await createUser(db, { email: "a@example.org", password: "long enough", role: "viewer" });
    const duplicate = await createUser(db, { email: "A@example.org", password: "long enough", role: "viewer" });
    expect(duplicate).toEqual({ ok: false, issues: [expect.stringMatching(/^email: .*already exists/)] });
    const badRole = await createUser(db, { email: "b@example.org", password: "long enough", role: "root" as never });
    expect(!badRole.ok && badRole.issues[0]).toMatch(/^role: must be one of admin, researcher, annotator, viewer/);
    const shortPassword = await createUser(db, { email: "c@example.org", password: "short", role: "viewer" });
    expect(!shortPassword.ok && shortPassword.issues[0]).toMatch(/^password: must be at least 8/);
    expect(await listUsers(db)).toHaveLength(1);
  });

  it("changes roles and passwords", async () => {
    await createUser(db, { email: "a@example.org", password: "first password", role: "viewer" });
    expect(await setUserRole(db, "a@example.org", "annotator")).toMatchObject({ ok: true, value: { role: "annotator" } });
    expect((await setUserRole(db, "missing@example.org", "admin")).ok).toBe(false);
    await setUserPassword(db, "a@example.org", "second password");
    expect(await verifyCredentials(db, "a@example.org", "first password")).toBeNull();
    expect(await verifyCredentials(db, "a@example.org", "second password")).not.toBeNull();
  });

  it("seeds one demo account per role and detects demo passwords until they are changed", async () => {
    expect(await seedDemoUsers(db)).toBe(4);
    expect((await listUsers(db)).map((user) => user.role).sort()).toEqual(["admin", "annotator", "researcher", "viewer"]);
    expect((await accountsWithDemoPasswords(db)).sort()).toEqual(DEMO_ACCOUNTS.map((account) => account.email).sort());
    await setUserPassword(db, "admin@demo.local", "a private password");
    expect(await accountsWithDemoPasswords(db)).not.toContain("admin@demo.local");
  });
});
