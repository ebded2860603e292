import { NextResponse, type NextRequest } from "next/server";
import { newNonce, securityHeaders } from "@/lib/security-headers";

// Every request gets a fresh script nonce: Next.js reads it from the request's Content-Security-Policy header and puts
// it on its scripts; the root layout hands it to next-themes. The same headers go on the response.
export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const https = request.nextUrl.protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const headers = securityHeaders({ nonce, https, development: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Static build files carry no scripts to protect; everything else (pages, API, RSC requests) gets the headers.
  matcher: ["/((?!_next/static|_next/image|favicon.ico).*)"],
};
