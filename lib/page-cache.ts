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

/**
 * A full-page GET by a reader without a session, for a public reading page. Client-side navigations (RSC payloads),
 * prefetches and server actions are rendered as usual. Next.js hides a navigation's `rsc` header and `_rsc` parameter
 * from proxy.ts, so the page load is recognised by what it accepts: browsers ask for `text/html` when loading a
 * document, while the router's fetches accept any type. Mistaking one for the other costs speed only:
 * a stored page is always HTML rendered for nobody in particular.
 */
export function isSharedPageRequest(request: PageRequest): boolean {
  if (request.method !== "GET") return false;
  if (!isCacheablePath(request.pathname)) return false;
  const { headers } = request;
  if (!/\btext\/html\b/i.test(headers.get("accept") ?? "")) return false;
  if (headers.get("rsc") !== null || headers.get("next-router-prefetch") !== null || headers.get("next-action") !== null) return false;
  if (headers.get("authorization") !== null) return false;
  return !SESSION_COOKIE.test(headers.get("cookie") ?? "");
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
