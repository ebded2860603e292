import "server-only";
// Checks on what arrives from outside before an import uses it: file names (no NUL or control characters, no
// directories, bounded length) and text (strict UTF-8: invalid bytes refuse the file instead of being replaced).

const MAX_NAME_LENGTH = 255;

/** Why an uploaded file's name is refused, or null when it is usable. Never echoes the name back. */
export function uploadNameProblem(name: string): string | null {
  if (/[\u0000-\u001f\u007f]/.test(name)) return "A file name contains control characters; rename the file.";
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return `A file name is empty or longer than ${MAX_NAME_LENGTH} characters; rename the file.`;
  if (/[\\/]/.test(name) || name === "." || name === "..") return "A file name contains a path; upload the files themselves.";
  return null;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** The text of `bytes`, or null when they are not valid UTF-8. */
export function decodeUtf8Strict(bytes: Uint8Array): string | null {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return null;
  }
}
