// The security headers of every response: a Content-Security-Policy built around a per-request script nonce,
// Permissions-Policy, and HSTS when the request came over https. Pure, so the proxy and its tests share it.
//
// Why these sources: Next.js puts the nonce on its own scripts and the next-themes script gets it explicitly, so
// scripts need no 'unsafe-inline'; 'strict-dynamic' lets those scripts load the app's chunks. React Flow and
// Recharts position elements with style attributes, which CSP can only allow with 'unsafe-inline' for styles.

export interface SecurityHeaderOptions {
  nonce: string;
  /** The request arrived over https (directly or per X-Forwarded-Proto from a proxy). */
  https: boolean;
  /** Development needs 'unsafe-eval' (React's debugging stacks); production never does. */
  development: boolean;
}

export function contentSecurityPolicy({ nonce, development }: Pick<SecurityHeaderOptions, "nonce" | "development">): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    // Model output is never loaded as images (SafeMarkdown shows alt text); blob: and data: serve downloads and icons.
    "img-src 'self' blob: data:",
    "font-src 'self'",
    `connect-src 'self'${development ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export const PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()";

export function securityHeaders(options: SecurityHeaderOptions): Record<string, string> {
  const headers: Record<string, string> = {
    "Content-Security-Policy": contentSecurityPolicy(options),
    "Permissions-Policy": PERMISSIONS_POLICY,
  };
  if (options.https) headers["Strict-Transport-Security"] = "max-age=31536000; includeSubDomains";
  return headers;
}

/** A fresh, unguessable nonce (128 bits, base64). */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
