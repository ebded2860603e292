import "server-only";
// next-auth (v4) configuration: email + password credentials, JWT sessions carrying the user id.
// The role is re-read from the database on every request (session.ts), and a session whose version is older than the
// user's (after sign-out, a password or a role change) is refused there.
import { AsyncLocalStorage } from "node:async_hooks";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { database } from "./db";
import { serverEnv } from "./env";
import { clientAddress, reserveSignInAttempt, type Reservation } from "./sign-in-throttle";
import { endSessions, findUserById, verifyCredentials } from "./users";

/** Thrown for a session ended server-side: next-auth then answers `{}` and clears the cookie. */
class SessionEnded extends Error {}

/** The sign-in route's reservation, for the authorize() call that runs inside it (next-auth's own request handling). */
const routeReservation = new AsyncLocalStorage<{ reservation: (Reservation & { ok: true }) | null }>();

/**
 * Runs next-auth's handling of a credentials sign-in with the attempt the route already reserved: authorize() checks
 * the password under that reservation instead of reserving again. Unused, it counts as a failed attempt.
 */
export async function withReservedAttempt<T>(reservation: Reservation & { ok: true }, handle: () => Promise<T>): Promise<T> {
  const slot = { reservation: reservation as (Reservation & { ok: true }) | null };
  try {
    return await routeReservation.run(slot, handle);
  } finally {
    await slot.reservation?.settle(false);
  }
}

function takeReservation(): (Reservation & { ok: true }) | undefined {
  const slot = routeReservation.getStore();
  const reservation = slot?.reservation ?? undefined;
  if (slot) slot.reservation = null;
  return reservation;
}

const credentialsSchema = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
});

const SESSION_MAX_AGE_SECONDS = 7 * 24 * 60 * 60;

export function authOptions(): NextAuthOptions {
  return {
    secret: serverEnv().NEXTAUTH_SECRET,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/signin", error: "/signin" },
    providers: [
      CredentialsProvider({
        name: "Email and password",
        credentials: {
          email: { label: "Email", type: "email" },
          password: { label: "Password", type: "password" },
        },
        async authorize(credentials, req) {
          const parsed = credentialsSchema.safeParse(credentials);
          if (!parsed.success) return null;
          const { email, password } = parsed.data;
          // The route reserved the attempt (and answered 429 when it could not); reached some other way, reserve here.
          const reservation = takeReservation() ?? (await reserveSignInAttempt(database(), email, clientAddress(req?.headers)));
          if (!reservation.ok) return null;
          let user: Awaited<ReturnType<typeof verifyCredentials>> = null;
          try {
            user = await verifyCredentials(database(), email, password);
          } finally {
            await reservation.settle(user !== null);
          }
          return user;
        },
      }),
    ],
    events: {
      // Signing out ends every session of the user server-side, not only the cookie in this browser.
      async signOut({ token }) {
        if (token?.userId) await endSessions(database(), token.userId);
      },
    },
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.userId = user.id;
          token.role = user.role;
          token.sessionVersion = user.sessionVersion;
        }
        return token;
      },
      // /api/auth/session (and getServerSession) describe only sessions still valid in the database: a sign-out
      // elsewhere, a password or a role change ends them everywhere, as session.ts does for pages.
      async session({ session, token }) {
        if (token.userId && token.role) {
          const user = await findUserById(database(), token.userId);
          if (!user || user.sessionVersion !== (token.sessionVersion ?? 0)) throw new SessionEnded();
          session.user = {
            id: token.userId,
            email: token.email ?? "",
            name: token.name ?? null,
            role: user.role,
            sessionVersion: user.sessionVersion,
          };
        }
        return session;
      },
    },
    logger: {
      // An ended session is an expected answer, not an error worth a log line.
      error(code, metadata) {
        if (metadata instanceof SessionEnded) return;
        console.error(`[next-auth][error][${code}]`, metadata);
      },
    },
  };
}
