export type FingerprintRecord = Record<string, [size: number, mtimeMs: number, sha256: string]>;
export function fingerprintFiles(
  root: string,
  files: readonly string[],
  options?: { previous?: FingerprintRecord; extra?: readonly string[] },
): { fingerprint: string; record: FingerprintRecord };
export function listFiles(root: string, dirs: readonly string[], skip?: (name: string) => boolean): string[];
export function unchangedSince(root: string, files: readonly string[], record: FingerprintRecord): boolean;
