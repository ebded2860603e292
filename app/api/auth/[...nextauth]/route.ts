import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { authOptions, withReservedAttempt } from "@/lib/server/auth";
import { database } from "@/lib/server/db";
import { clientAddress, reserveSignInAttempt } from "@/lib/server/sign-in-throttle";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

function handler(request: Request, context: RouteContext) {
  return NextAuth(request as never, context as never, authOptions());
}

// A credentials sign-in reserves its attempt before the password is checked (lib/server/sign-in-throttle.ts): when
// the account or the address must wait, it is refused with 429 + Retry-After and nothing is checked.
async function post(request: Request, context: RouteContext) {
  const { nextauth } = await context.params;
  if (nextauth.join("/") !== "callback/credentials") return handler(request, context);
  const form = await request.clone().formData().catch(() => null);
  const email = form?.get("email");
  const reservation = await reserveSignInAttempt(database(), typeof email === "string" ? email : "", clientAddress(request.headers));
  if (!reservation.ok) {
    const wait = reservation.retryAfterSeconds;
    return NextResponse.json(
      // `url` carries the error the way next-auth's client reads it (signIn(..., { redirect: false }).error).
      { error: "TooManyAttempts", url: new URL("/signin?error=TooManyAttempts", request.url).toString(), retryAfterSeconds: wait },
      { status: 429, headers: { "Retry-After": String(wait) } },
    );
  }
  return withReservedAttempt(reservation, () => handler(request, context));
}

export { handler as GET, post as POST };
