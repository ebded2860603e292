import "server-only";
// next-auth (v4) configuration: email + password credentials, JWT sessions carrying the user id.
// The role in the session is re-read from the database on every request (see session.ts), so role changes apply at once.
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { z } from "zod";
import { database } from "./db";
import { serverEnv } from "./env";
import { verifyCredentials } from "./users";

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
        async authorize(credentials) {
          const parsed = credentialsSchema.safeParse(credentials);
          if (!parsed.success) return null;
          return verifyCredentials(database(), parsed.data.email, parsed.data.password);
        },
      }),
    ],
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          token.userId = user.id;
          token.role = user.role;
        }
        return token;
      },
      session({ session, token }) {
        if (token.userId && token.role) {
          session.user = {
            id: token.userId,
            email: token.email ?? "",
            name: token.name ?? null,
            role: token.role,
          };
        }
        return session;
      },
    },
  };
}
