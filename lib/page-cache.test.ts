import { describe, expect, it } from "vitest";
import { isCacheablePath, isSharedPageRequest, needsSignInFirst, nonceInPolicy, sharedPageKey, sharedRequestKind, splitOnNonce } from "./page-cache";

const DOCUMENT_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** A browser's page load unless `headers` say otherwise. */
function request(pathname: string, headers: Record<string, string> = {}, method = "GET") {
  return { method, pathname, headers: new Headers({ accept: DOCUMENT_ACCEPT, ...headers }) };
}

describe("which requests share a stored page", () => {
  it("shares cookie-less GETs of reading pages", () => {
    for (const path of ["/", "/tasks/PaperQA", "/responses/abc", "/runs", "/runs/r1/report", "/models/gpt", "/charts", "/compare", "/diff/models", "/diagnostics", "/judges"]) {
      expect(isSharedPageRequest(request(path)), path).toBe(true);
    }
  });

  it("renders afresh for anyone carrying a session cookie, valid or not, plain, secure-prefixed or chunked", () => {
    for (const cookie of [
      "next-auth.session-token=abc",
      "theme=dark; next-auth.session-token=abc",
      "__Secure-next-auth.session-token=abc",
      "next-auth.session-token.0=abc; next-auth.session-token.1=def",
      "__Secure-next-auth.session-token.0=abc",
    ]) {
      expect(isSharedPageRequest(request("/responses/abc", { cookie })), cookie).toBe(false);
    }
    // Other cookies (the CSRF and callback cookies of a sign-in that never finished) do not make a reader known.
    expect(isSharedPageRequest(request("/responses/abc", { cookie: "next-auth.csrf-token=x; next-auth.callback-url=y" }))).toBe(true);
  });

  it("never shares writes, client navigations, prefetches, actions or authorized calls", () => {
    expect(isSharedPageRequest(request("/", {}, "POST"))).toBe(false);
    expect(isSharedPageRequest(request("/", {}, "HEAD"))).toBe(false);
    expect(isSharedPageRequest(request("/", { rsc: "1" }))).toBe(false);
    // The router's navigation fetch as proxy.ts sees it (Next.js strips its rsc header and _rsc parameter).
    expect(isSharedPageRequest(request("/", { accept: "*/*" }))).toBe(false);
    expect(isSharedPageRequest({ method: "GET", pathname: "/", headers: new Headers() })).toBe(false);
    expect(isSharedPageRequest(request("/", { "next-router-prefetch": "1" }))).toBe(false);
    expect(isSharedPageRequest(request("/", { "next-action": "abc" }))).toBe(false);
    expect(isSharedPageRequest(request("/", { authorization: "Bearer x" }))).toBe(false);
  });

  it("keeps personal, write and API pages out", () => {
    for (const path of ["/review", "/review/q1", "/import", "/jobs", "/settings/endpoints", "/signin", "/api/health", "/api/export/leaderboard", "/promote", "/403", "/runsx", "/responses"]) {
      expect(isCacheablePath(path), path).toBe(false);
    }
  });
});

describe("swapping a stored page's nonce", () => {
  it("reads the nonce from the policy's script-src", () => {
    expect(nonceInPolicy("default-src 'self'; script-src 'self' 'nonce-Ab+/9xYz0123456789==' 'strict-dynamic'")).toBe("Ab+/9xYz0123456789==");
    expect(nonceInPolicy("default-src 'self'")).toBeNull();
    expect(nonceInPolicy(null)).toBeNull();
  });

  it("splits at every occurrence, attributes and payload alike, and refuses pages without the nonce", () => {
    const nonce = "Ab+/9xYz0123456789==";
    const html = `<script nonce="${nonce}">a</script><script nonce="${nonce}">self.__next_f.push([1,"{\\"nonce\\":\\"${nonce}\\"}"])</script>`;
    const parts = splitOnNonce(html, nonce);
    expect(parts).toHaveLength(4);
    expect(parts!.join("FRESHNONCE0123456789")).not.toContain(nonce);
    expect(parts!.join("FRESHNONCE0123456789").split("FRESHNONCE0123456789")).toHaveLength(4);
    expect(splitOnNonce("<p>no scripts</p>", nonce)).toBeNull();
    expect(splitOnNonce(html, "short")).toBeNull();
  });
});

describe("pages that need a sign-in first (PUBLIC_READ=false)", () => {
  it("sends anonymous page loads to sign-in, but not the sign-in machinery, the refusal page or API routes", () => {
    for (const path of ["/", "/runs/r1", "/responses/abc", "/jobs", "/review"]) expect(needsSignInFirst(request(path), false), path).toBe(true);
    for (const path of ["/signin", "/403", "/api/health", "/api/auth/session", "/icon.svg"]) expect(needsSignInFirst(request(path), false), path).toBe(false);
  });

  it("leaves readers with a session cookie to the page's own check, and does nothing while anonymous reading is on", () => {
    expect(needsSignInFirst(request("/runs/r1", { cookie: "next-auth.session-token=junk" }), false)).toBe(false);
    expect(needsSignInFirst(request("/runs/r1"), true)).toBe(false);
    expect(needsSignInFirst(request("/runs/r1", {}, "POST"), false)).toBe(false);
  });
});

describe("RSC payloads of public pages", () => {
  it("shares a client-side navigation's payload, keyed by the router's state, and never a signed-in reader's", () => {
    const navigation = { rsc: "1", "next-router-state-tree": "%5B%22%22%5D", accept: "*/*" };
    expect(sharedRequestKind(request("/tasks/A", navigation))).toBe("rsc");
    expect(sharedRequestKind(request("/tasks/A"))).toBe("document");
    expect(sharedRequestKind(request("/tasks/A", { ...navigation, cookie: "next-auth.session-token=x" }))).toBeNull();
    expect(sharedRequestKind(request("/review", navigation))).toBeNull();
    const headers = new Headers(navigation);
    const other = new Headers({ ...navigation, "next-router-state-tree": "%5B%22x%22%5D" });
    expect(sharedPageKey("rsc", "h|http", "/tasks/A?_rsc=1", headers)).not.toBe(sharedPageKey("rsc", "h|http", "/tasks/A?_rsc=1", other));
    expect(sharedPageKey("rsc", "h|http", "/tasks/A", headers)).not.toBe(sharedPageKey("document", "h|http", "/tasks/A", headers));
  });
});
