// The CSP allows scripts only with the request's nonce (no 'unsafe-inline' for scripts), forbids framing and
// plugins, and HSTS is sent only over https.
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, newNonce, securityHeaders } from "./security-headers";

describe("security headers", () => {
  it("builds a nonce-based script policy without inline or eval in production", () => {
    const csp = contentSecurityPolicy({ nonce: "abc123", development: false });
    const script = csp.split("; ").find((directive) => directive.startsWith("script-src "))!;
    expect(script).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(contentSecurityPolicy({ nonce: "n", development: true })).toContain("'unsafe-eval'");
  });

  it("sends HSTS only over https, and Permissions-Policy always", () => {
    expect(securityHeaders({ nonce: "n", https: false, development: false })["Strict-Transport-Security"]).toBeUndefined();
    expect(securityHeaders({ nonce: "n", https: true, development: false })["Strict-Transport-Security"]).toMatch(/^max-age=31536000/);
    expect(securityHeaders({ nonce: "n", https: false, development: false })["Permissions-Policy"]).toContain("camera=()");
  });

  it("makes a different 128-bit nonce each time", () => {
    const nonces = new Set(Array.from({ length: 50 }, newNonce));
    expect(nonces.size).toBe(50);
    expect(atob([...nonces][0]!)).toHaveLength(16);
  });
});
