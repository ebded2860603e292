import { NextResponse, type NextRequest } from "next/server";
import { serverEnvSchema } from "@/lib/config/server-env-schema";
import { needsSignInFirst, RSC_REQUEST_HEADERS, sharedPageKey, sharedRequestKind } from "@/lib/page-cache";
import { newNonce, securityHeaders } from "@/lib/security-headers";
import { CACHE_STATUS_HEADER, FILL_HEADER, pageBody, serverPageCache } from "@/lib/server/page-cache";

// Every request gets a fresh script nonce: Next.js reads it from the request's Content-Security-Policy header and puts
// it on its scripts; the root layout hands it to next-themes. The same headers go on the response.
// Anonymous readers of public pages get the page, or the RSC payload of a client-side navigation, stored for the
// current data version (lib/server/page-cache.ts), with this request's nonce swapped in; anyone with a session cookie
// is rendered afresh.
export async function proxy(request: NextRequest) {
  const nonce = newNonce();
  const https = request.nextUrl.protocol === "https:" || request.headers.get("x-forwarded-proto") === "https";
  const headers = securityHeaders({ nonce, https, development: process.env.NODE_ENV === "development" });

  const publicRead = serverEnvSchema.shape.PUBLIC_READ.safeParse(process.env.PUBLIC_READ);
  if (needsSignInFirst({ method: request.method, pathname: request.nextUrl.pathname, headers: request.headers }, !publicRead.success || publicRead.data)) {
    const signIn = new URL("/signin", request.url);
    signIn.searchParams.set("callbackUrl", `${request.nextUrl.pathname}${request.nextUrl.search}`);
    const response = NextResponse.redirect(signIn, 307);
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    return response;
  }

  const cache = process.env.NODE_ENV === "production" ? serverPageCache() : null;
  const kind = cache && request.headers.get(FILL_HEADER) !== cache.fillToken ? sharedRequestKind({ method: request.method, pathname: request.nextUrl.pathname, headers: request.headers }) : null;
  if (cache && kind) {
    const path = `${request.nextUrl.pathname}${request.nextUrl.search}`;
    const fillHeaders: Record<string, string> = {};
    for (const name of ["host", "x-forwarded-host", "x-forwarded-proto"]) {
      const value = request.headers.get(name);
      if (value !== null) fillHeaders[name === "host" ? "x-forwarded-host" : name] = value;
    }
    if (kind === "rsc") {
      fillHeaders.accept = "*/*";
      for (const name of RSC_REQUEST_HEADERS) {
        const value = request.headers.get(name);
        if (value !== null) fillHeaders[name] = value;
      }
    }
    const key = sharedPageKey(kind, `${fillHeaders["x-forwarded-host"] ?? ""}|${https ? "https" : "http"}`, path, request.headers);
    const page = await cache.lookup(key, path, fillHeaders);
    if (page) {
      // Next.js wants a proxy's redirect absolute (it answers same-origin ones relative again).
      const stored = page.headers.map(([name, value]): [string, string] => [name, name === "location" ? new URL(value, request.url).toString() : value]);
      // Next.js compresses it for readers that accept gzip, as it does rendered pages.
      const response = new NextResponse(pageBody(page, nonce) as Uint8Array<ArrayBuffer>, { status: page.status, headers: stored });
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      response.headers.set(CACHE_STATUS_HEADER, page.oneOff ? "rendered-once" : "stored");
      return response;
    }
  }

  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("x-nonce", nonce);
  requestHeaders.set("Content-Security-Policy", headers["Content-Security-Policy"]!);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  // Static build files carry no scripts to protect; everything else (pages, API, RSC requests) gets the headers.
  // Requests with a body (uploads, server actions, sign-in posts) skip the proxy: Next.js would read the whole body
  // into memory before the route could check the session or Content-Length. Their answers are JSON, RSC payloads
  // or redirects, and keep the static security headers of next.config.ts.
  matcher: [
    {
      source: "/((?!_next/static|_next/image|favicon.ico).*)",
      missing: [
        { type: "header", key: "content-length", value: "0*[1-9][0-9]*" },
        { type: "header", key: "transfer-encoding" },
        { type: "header", key: "next-action" },
      ],
    },
  ],
};
