import "server-only";
// Demo accounts for the embedded local setup, one per role. Their passwords are public (README) and local-only:
// with APP_ENV=production the server refuses to start while any account still uses one, unless allowed.
import { ROLES, type Role } from "@/lib/auth/roles";
import type { Database } from "./db";
import { verifyPassword } from "./passwords";
import { createUser } from "./users";

export const DEMO_ACCOUNTS: ReadonlyArray<{ email: string; password: string; role: Role; name: string }> = ROLES.map(
  (role) => ({
    email: `${role}@demo.local`,
    password: `${role}-demo-pass`,
    role,
    name: `Demo ${role[0]!.toUpperCase()}${role.slice(1)}`,
  }),
);

export async function seedDemoUsers(db: Database): Promise<number> {
  let created = 0;
  for (const account of DEMO_ACCOUNTS) {
    const result = await createUser(db, account);
    if (result.ok) created += 1;
  }
  return created;
}

/** Demo accounts that still have their published password. */
export async function accountsWithDemoPasswords(db: Database): Promise<string[]> {
  const users = await db.user.findMany({
    where: { email: { in: DEMO_ACCOUNTS.map((account) => account.email) } },
    select: { email: true, passwordHash: true },
  });
  const flagged: string[] = [];
  for (const user of users) {
    const account = DEMO_ACCOUNTS.find((candidate) => candidate.email === user.email);
    if (account && (await verifyPassword(account.password, user.passwordHash))) flagged.push(user.email);
  }
  return flagged;
}
