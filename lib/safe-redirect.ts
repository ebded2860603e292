// Keeps post-sign-in redirects on this site: only same-origin absolute paths are accepted.
// Anything else (other hosts, protocol-relative `//x`, backslashes) falls back to the given default.

export function safeRedirectPath(candidate: string | null | undefined, fallback = "/"): string {
  if (!candidate || typeof candidate !== "string") return fallback;
  if (!candidate.startsWith("/") || candidate.startsWith("//") || candidate.includes("\\")) return fallback;
  if (/[\u0000-\u001f]/.test(candidate)) return fallback;
  return candidate;
}
