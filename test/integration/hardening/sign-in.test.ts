// Sign-in throttling, shared through the database: attempts are reserved before any password is checked, so a burst
// of 40 checks at most 10; an attacker's address is slowed and then refused while the owner, from a clean address,
// still signs in; another process (or a restart) sees the same counts. Sessions end server-side on sign-out, password
// and role changes.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/api/auth/[...nextauth]/route";
import { authOptions } from "@/lib/server/auth";
import { currentUser } from "@/lib/server/session";
import { MAX_FAILURES, reserveSignInAttempt, resetSignInThrottle } from "@/lib/server/sign-in-throttle";
import { createUser, setUserPassword, setUserRole } from "@/lib/server/users";
import { emptyDatabase, testDatabase, testDatabaseUrl } from "../../support/database";
import { signInAsUser } from "../../support/session-mock";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../../support/session-mock")).nextAuthMock }));

// Every bcrypt comparison, counted (the real one runs).
const checks = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/server/passwords", async (original) => {
  const real = await original<typeof import("@/lib/server/passwords")>();
  return { ...real, verifyPassword: (password: string, hash: string) => ((checks.count += 1), real.verifyPassword(password, hash)) };
});

type Authorize = (credentials: Record<string, string>, req: { headers: Record<string, string> }) => Promise<unknown>;

function authorize(): Authorize {
  const provider = authOptions().providers[0] as unknown as { options: { authorize: Authorize } };
  return provider.options.authorize;
}

function credentialsPost(email: string, password: string, address: string): Request {
  return new Request("http://127.0.0.1:3000/api/auth/callback/credentials", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": address },
    body: new URLSearchParams({ email, password, csrfToken: "x" }),
  });
}

const context = { params: Promise.resolve({ nextauth: ["callback", "credentials"] }) };
const OWNER = "target@example.org";

describe("sign-in throttling", () => {
  const db = testDatabase();
  beforeEach(async () => {
    await emptyDatabase(db);
    await resetSignInThrottle(db);
    await createUser(db, { email: OWNER, password: "right-password-1", role: "researcher" });
    checks.count = 0;
  });

  it("checks at most 10 of 40 concurrent guesses for one account, refusing the rest with 429 and Retry-After", async () => {
    const check = authorize();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? POST(credentialsPost(OWNER, `wrong-${i}`, "203.0.113.7"), context) : check({ email: OWNER, password: `wrong-${i}` }, { headers: { "x-forwarded-for": "203.0.113.7" } }))),
    );
    expect(checks.count).toBeGreaterThan(0);
    expect(checks.count).toBeLessThanOrEqual(MAX_FAILURES);
    const refused = answers.filter((answer): answer is Response => answer instanceof Response && answer.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const answer of refused) expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("lets the owner in from a clean address while the attacker's addresses are refused", async () => {
    const check = authorize();
    // Guesses from several addresses (three each before the delays start) until the account has its ten failures:
    // the fourth address's first guess is the tenth; its next ones meet the lock unchecked.
    const attackers = ["203.0.113.7", "203.0.113.8", "203.0.113.9", "203.0.113.10"];
    for (const address of attackers) for (let i = 0; i < 3; i++) await check({ email: OWNER, password: `wrong-${address}-${i}` }, { headers: { "x-forwarded-for": address } });
    expect(checks.count).toBe(MAX_FAILURES);
    // The account is locked for addresses with failures: refused before any check.
    const refused = await POST(credentialsPost(OWNER, "right-password-1", "203.0.113.7"), context);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(checks.count).toBe(MAX_FAILURES);
    // The owner, from an address with no failures, is checked and let in.
    const owner = (await check({ email: OWNER, password: "right-password-1" }, { headers: { "x-forwarded-for": "198.51.100.9" } })) as { email?: string } | null;
    expect(owner?.email).toBe(OWNER);
    expect(checks.count).toBe(MAX_FAILURES + 1);
  });

  it("shares the counts with another app process, and keeps them across a restart", async () => {
    const child = spawnSync(process.execPath, ["--import", "tsx", "--conditions=react-server", path.resolve(__dirname, "../../support/sign-in-attempts.ts"), OWNER, "203.0.113.50", "3"], {
      cwd: path.resolve(__dirname, "../../.."),
      env: { ...process.env, DATABASE_URL: testDatabaseUrl() },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(JSON.parse(child.stdout.trim().split("\n").at(-1) ?? "null")).toEqual(["checked", "checked", "checked"]);
    // This process sees the other's three failures: a fourth attempt 0.1 s after the third must wait (0.25 s).
    const stored = await db.signInThrottle.findUniqueOrThrow({ where: { key: "address:203.0.113.50" } });
    expect(stored.failures).toBe(3);
    const third = stored.lastAttemptAt!.getTime();
    expect(await reserveSignInAttempt(db, OWNER, "203.0.113.50", () => new Date(third + 100))).toEqual({ ok: false, retryAfterSeconds: 1 });
    const later = await reserveSignInAttempt(db, OWNER, "203.0.113.50", () => new Date(third + 300));
    expect(later.ok).toBe(true);
    if (later.ok) await later.settle(false);
    expect((await db.signInThrottle.findUniqueOrThrow({ where: { key: `account:${OWNER}` } })).failures).toBe(4);
  });
});

describe("session revocation", () => {
  const db = testDatabase();

  it("ends the session server-side on sign-out, password change and role change", async () => {
    await emptyDatabase(db);
    const created = await createUser(db, { email: "reader@example.org", password: "reader-pass-1", role: "viewer" });
    if (!created.ok) throw new Error("user not created");
    const user = created.value;

    signInAsUser(user.id, user.sessionVersion);
    expect((await currentUser())?.id).toBe(user.id);

    await authOptions().events!.signOut!({ token: { userId: user.id, sessionVersion: user.sessionVersion }, session: null as never });
    expect(await currentUser()).toBeNull();

    const afterSignOut = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion;
    signInAsUser(user.id, afterSignOut);
    expect((await currentUser())?.id).toBe(user.id);
    await setUserPassword(db, user.email, "another-pass-2");
    expect(await currentUser()).toBeNull();

    const afterPassword = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion;
    signInAsUser(user.id, afterPassword);
    expect((await currentUser())?.id).toBe(user.id);
    await setUserRole(db, user.email, "annotator");
    expect(await currentUser()).toBeNull();
  });
});
