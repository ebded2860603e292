import NextAuth from "next-auth";
import { NextResponse } from "next/server";
import { authOptions } from "@/lib/server/auth";
import { clientAddress, retryAfterSeconds } from "@/lib/server/sign-in-throttle";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

function handler(request: Request, context: RouteContext) {
  return NextAuth(request as never, context as never, authOptions());
}

// A credentials sign-in is refused with 429 + Retry-After, before the password is checked, once the account or the
// address has 10 failures within 15 minutes (lib/server/sign-in-throttle.ts).
async function post(request: Request, context: RouteContext) {
  const { nextauth } = await context.params;
  if (nextauth.join("/") === "callback/credentials") {
    const form = await request.clone().formData().catch(() => null);
    const email = form?.get("email");
    const wait = retryAfterSeconds(typeof email === "string" ? email : "", clientAddress(request.headers));
    if (wait > 0) {
      return NextResponse.json(
        // `url` carries the error the way next-auth's client reads it (signIn(..., { redirect: false }).error).
        { error: "TooManyAttempts", url: new URL("/signin?error=TooManyAttempts", request.url).toString(), retryAfterSeconds: wait },
        { status: 429, headers: { "Retry-After": String(wait) } },
      );
    }
  }
  return handler(request, context);
}

export { handler as GET, post as POST };
