// Safe defaults: demo accounts only in local mode on loopback (or when asked for); elsewhere the first start creates
// one admin with a random password, and a demo password left on a reachable or production server refuses the start.
import { beforeEach, describe, expect, it } from "vitest";
import { demoAccountsEnabled, isLoopbackHost } from "@/lib/config/server-env-schema";
import { seedDemoUsers } from "@/lib/server/demo-users";
import { loadServerEnv } from "@/lib/server/env";
import { createFirstAccounts, enforceNoDemoPasswords, StartupRefusal } from "@/lib/server/startup-policy";
import { verifyCredentials } from "@/lib/server/users";
import { emptyDatabase, testDatabase } from "../../support/database";

const env = (overrides: Record<string, string>) =>
  loadServerEnv({ DATABASE_URL: process.env.DATABASE_URL, NEXTAUTH_SECRET: "s".repeat(40), ...overrides });

describe("safe defaults", () => {
  const db = testDatabase();
  beforeEach(() => emptyDatabase(db));

  it("enables demo accounts only on loopback in local mode, or when asked for, never in production", () => {
    expect(["127.0.0.1", "localhost", "::1", "[::1]", "127.3.4.5"].filter((host) => !isLoopbackHost(host))).toEqual([]);
    expect(["0.0.0.0", "::", "192.168.1.4", "example.org"].some(isLoopbackHost)).toBe(false);
    expect(demoAccountsEnabled(env({}))).toBe(true);
    expect(demoAccountsEnabled(env({ HOST: "0.0.0.0" }))).toBe(false);
    expect(demoAccountsEnabled(env({ HOST: "0.0.0.0", DEMO_ACCOUNTS: "true" }))).toBe(true);
    expect(demoAccountsEnabled(env({ APP_ENV: "production", DEMO_ACCOUNTS: "true" }))).toBe(false);
  });

  it("creates one admin with a random password on a reachable host without configuration", async () => {
    const reachable = env({ HOST: "0.0.0.0" });
    const first = await createFirstAccounts(db, reachable);
    expect(first && "admin" in first).toBe(true);
    if (!first || !("admin" in first)) return;
    expect(first.password.length).toBeGreaterThanOrEqual(20);
    expect(await db.user.count()).toBe(1);
    expect((await verifyCredentials(db, first.admin, first.password))?.role).toBe("admin");
    expect(await db.user.findFirst({ where: { email: { endsWith: "@demo.local" } } })).toBeNull();
    // A second start creates nothing and prints nothing.
    expect(await createFirstAccounts(db, reachable)).toBeNull();
  });

  it("refuses to start with demo passwords on a reachable host or in production, and changes nothing", async () => {
    await seedDemoUsers(db);
    const before = await db.user.findMany({ orderBy: { id: "asc" } });
    for (const refused of [env({ HOST: "0.0.0.0" }), env({ APP_ENV: "production" })]) {
      await expect(enforceNoDemoPasswords(db, refused)).rejects.toBeInstanceOf(StartupRefusal);
    }
    await expect(enforceNoDemoPasswords(db, env({}))).resolves.toBeUndefined();
    await expect(enforceNoDemoPasswords(db, env({ HOST: "0.0.0.0", ALLOW_DEMO_PASSWORDS: "true" }))).resolves.toBeUndefined();
    expect(await db.user.findMany({ orderBy: { id: "asc" } })).toEqual(before);
  });
});
