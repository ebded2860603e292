// Which requests may share a stored, fully rendered page, and how a stored page gets a fresh script nonce.
// Guarantees: only cookie-less (anonymous) GETs of public reading pages qualify; a nonce is never served twice.
//
// Why this shape: a page's HTML is the same for every anonymous reader of one URL while the data is unchanged, so
// rendering it once per data version is enough. Anyone carrying a session cookie (valid or not) is rendered afresh,
// which keeps role-dependent views (blind review queues hiding verdicts, admin buttons) out of the shared store.

/** Reading pages whose anonymous view depends only on the URL and the data. */
const CACHEABLE_PREFIXES = ["/tasks", "/responses/", "/runs", "/models/", "/charts", "/compare", "/diff", "/diagnostics", "/judges"] as const;

/** next-auth's session cookie, plain or `__Secure-` prefixed, whole or split into `.0`, `.1`, … chunks. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-|__Host-)?next-auth\.session-token(?:\.\d+)?=/;

export interface PageRequest {
  method: string;
  pathname: string;
  headers: { get(name: string): string | null };
}

export function isCacheablePath(pathname: string): boolean {
  if (pathname === "/") return true;
  return CACHEABLE_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`));
}

/** The router's headers that shape an RSC payload: part of a stored payload's key, and sent with its render. */
export const RSC_REQUEST_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-url"] as const;

export type SharedRequestKind = "document" | "rsc";

/**
 * What a GET by a reader without a session, for a public reading page, asks for: the page itself ("document": a
 * browser loading it accepts `text/html`) or its RSC payload ("rsc": a client-side navigation or prefetch, `RSC: 1`;
 * next.config.ts lets proxy.ts see that header). Null for anything rendered per request: signed-in readers, server
 * actions, other pages.
 */
export function sharedRequestKind(request: PageRequest): SharedRequestKind | null {
  if (request.method !== "GET") return null;
  if (!isCacheablePath(request.pathname)) return null;
  const { headers } = request;
  if (headers.get("next-action") !== null || headers.get("authorization") !== null || headers.get("next-hmr-refresh") !== null) return null;
  if (SESSION_COOKIE.test(headers.get("cookie") ?? "")) return null;
  if (headers.get("rsc") === "1") return "rsc";
  if (headers.get("rsc") !== null || headers.get("next-router-prefetch") !== null) return null;
  return /\btext\/html\b/i.test(headers.get("accept") ?? "") ? "document" : null;
}

/** A full-page GET by a reader without a session, for a public reading page (see sharedRequestKind). */
export function isSharedPageRequest(request: PageRequest): boolean {
  return sharedRequestKind(request) === "document";
}

/** The key a shared answer is stored under: where it was asked, what for, and for an RSC payload the router's state. */
export function sharedPageKey(kind: SharedRequestKind, origin: string, pathWithSearch: string, headers: { get(name: string): string | null }): string {
  if (kind === "document") return `${origin}|${pathWithSearch}`;
  return `${origin}|rsc|${pathWithSearch}|${RSC_REQUEST_HEADERS.map((name) => headers.get(name) ?? "").join("|")}`;
}

/** Pages anyone may open whatever PUBLIC_READ says (signing in, the refusal page); API routes answer for themselves. */
const OPEN_PATHS = ["/signin", "/403", "/api/", "/icon.svg"] as const;

/**
 * A page load by someone without a session cookie while anonymous reading is off: answered with a redirect to
 * sign-in before anything renders, rather than a streamed shell that redirects in the browser.
 */
export function needsSignInFirst(request: PageRequest, publicRead: boolean): boolean {
  if (publicRead || (request.method !== "GET" && request.method !== "HEAD")) return false;
  if (OPEN_PATHS.some((path) => request.pathname === path || (path.endsWith("/") && request.pathname.startsWith(path)))) return false;
  return !SESSION_COOKIE.test(request.headers.get("cookie") ?? "");
}

/** The nonce in a Content-Security-Policy's script-src, or null. */
export function nonceInPolicy(policy: string | null): string | null {
  const match = /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(policy ?? "");
  return match?.[1] ?? null;
}

/**
 * Splits a rendered page around every occurrence of the nonce it was rendered with, so serving it with another nonce is
 * a concatenation. Null when the page does not carry that nonce (nothing to swap: storing it would be unsafe to reason
 * about).
 */
export function splitOnNonce(html: string, nonce: string): string[] | null {
  if (nonce.length < 16) return null;
  const parts = html.split(nonce);
  return parts.length > 1 ? parts : null;
}
