// Sign-in: the 11th wrong password within 15 minutes answers 429 with Retry-After (before the password is checked),
// and signing out, a password change or a role change ends existing sessions server-side.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { POST } from "@/app/api/auth/[...nextauth]/route";
import { authOptions } from "@/lib/server/auth";
import { currentUser } from "@/lib/server/session";
import { resetSignInThrottle } from "@/lib/server/sign-in-throttle";
import { createUser, setUserPassword, setUserRole } from "@/lib/server/users";
import { emptyDatabase, testDatabase } from "../../support/database";
import { signInAsUser } from "../../support/session-mock";

vi.mock("next-auth", async (original) => ({ ...(await original<typeof import("next-auth")>()), ...(await import("../../support/session-mock")).nextAuthMock }));

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

describe("sign-in throttling", () => {
  const db = testDatabase();
  beforeAll(async () => {
    await emptyDatabase(db);
    resetSignInThrottle();
    await createUser(db, { email: "target@example.org", password: "right-password-1", role: "researcher" });
  });

  it("answers the 11th wrong password within 15 minutes with 429 and Retry-After, even with the right one", async () => {
    const check = authorize();
    for (let attempt = 1; attempt <= 10; attempt++) {
      // Ten wrong passwords through the provider's check (next-auth itself needs a running server).
      expect(await check({ email: "target@example.org", password: `wrong-${attempt}` }, { headers: { "x-forwarded-for": "203.0.113.7" } })).toBeNull();
    }
    for (const [password, address] of [["wrong-11", "203.0.113.7"], ["right-password-1", "198.51.100.9"]] as const) {
      const refused = await POST(credentialsPost("target@example.org", password, address), context);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    }
    // The address is throttled too, whichever account it tries next.
    expect((await POST(credentialsPost("someone-else@example.org", "x", "203.0.113.7"), context)).status).toBe(429);
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
