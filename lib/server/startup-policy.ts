import "server-only";
// What a server refuses to start with, and the first account of a fresh install. Runs from `npm start` (setup) and
// from the app itself at start (instrumentation.ts), so the rules hold however the server is launched.
import { randomBytes } from "node:crypto";
import { demoAccountsEnabled } from "@/lib/config/server-env-schema";
import type { Database } from "./db";
import { accountsWithDemoPasswords, seedDemoUsers } from "./demo-users";
import type { ResolvedServerEnv } from "./env";
import { createUser } from "./users";

export class StartupRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartupRefusal";
  }
}

/** Refuses when an account still has a published demo password where demo accounts are not allowed. */
export async function enforceNoDemoPasswords(db: Database, env: ResolvedServerEnv): Promise<void> {
  if (demoAccountsEnabled(env) || env.ALLOW_DEMO_PASSWORDS) return;
  const flagged = await accountsWithDemoPasswords(db);
  if (flagged.length === 0) return;
  const where = env.APP_ENV === "production" ? "in production" : `on ${env.HOST} (not a loopback address)`;
  throw new StartupRefusal(
    `Refusing to start ${where}: ${flagged.join(", ")} still use published demo passwords. ` +
      "Change them with `npm run user -- set-password --email <email> --password <new>` " +
      "or set ALLOW_DEMO_PASSWORDS=true to override.",
  );
}

/**
 * The accounts of a database without users: the demo accounts where they are allowed, else one admin with a random
 * password, returned so the caller prints it once (it is stored only as a hash).
 */
export async function createFirstAccounts(db: Database, env: ResolvedServerEnv): Promise<{ demo: number } | { admin: string; password: string } | null> {
  if ((await db.user.count()) > 0) return null;
  if (demoAccountsEnabled(env)) return { demo: await seedDemoUsers(db) };
  const password = randomBytes(18).toString("base64url");
  const created = await createUser(db, { email: env.INITIAL_ADMIN_EMAIL, password, role: "admin", name: "Administrator" });
  if (!created.ok) throw new StartupRefusal(`Could not create the first admin: ${created.issues.join("; ")}`);
  return { admin: created.value.email, password };
}

/** The one-time notice for a generated admin password. */
export function firstAdminNotice(admin: string, password: string): string {
  return [
    "┌─ First start: an admin account was created ─────────────────────",
    `│ email:    ${admin}`,
    `│ password: ${password}`,
    "│ This password is shown once and stored only as a hash. Sign in and change it:",
    "│   npm run user -- set-password --email <email> --password <new>",
    "└─────────────────────────────────────────────────────────────────",
  ].join("\n");
}
