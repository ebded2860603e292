import "server-only";
// Encrypts secrets at rest (endpoint API keys) with AES-256-GCM under one server key.
// The key comes from C2W_SECRETS_KEY, or is generated once into data/.secrets-key (mode 0600) like the session secret.
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const VERSION = "v1";
const KEY_BYTES = 32;
const IV_BYTES = 12;

export class SecretKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SecretKeyError";
  }
}

/** Reads a 32-byte key written as base64, base64url or hex. */
export function parseSecretKey(text: string): Buffer {
  const trimmed = text.trim();
  const candidates = [/^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : null, Buffer.from(trimmed, "base64url"), Buffer.from(trimmed, "base64")];
  const key = candidates.find((candidate) => candidate !== null && candidate.length === KEY_BYTES);
  if (!key) throw new SecretKeyError("C2W_SECRETS_KEY must be 32 bytes written as base64 or hex (e.g. `openssl rand -base64 32`)");
  return key;
}

function keyFromFile(file: string): Buffer {
  if (existsSync(file)) return parseSecretKey(readFileSync(file, "utf8"));
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(KEY_BYTES);
  // "wx": two processes starting at once must not both write a key; the loser reads the winner's.
  try {
    writeFileSync(file, key.toString("base64url"), { mode: 0o600, flag: "wx" });
    return key;
  } catch {
    return parseSecretKey(readFileSync(file, "utf8"));
  }
}

let cachedKey: Buffer | undefined;

/** The server's secrets key: from C2W_SECRETS_KEY, else data/.secrets-key under the working directory. */
export function serverSecretKey(env: Record<string, string | undefined> = process.env): Buffer {
  if (cachedKey) return cachedKey;
  const fromEnv = env.C2W_SECRETS_KEY?.trim();
  cachedKey = fromEnv ? parseSecretKey(fromEnv) : keyFromFile(path.join(process.cwd(), "data", ".secrets-key"));
  return cachedKey;
}

/** "v1.<iv>.<tag>.<ciphertext>", all base64url: one string column holds everything decryption needs. */
export function encryptSecret(plaintext: string, key: Buffer = serverSecretKey()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString("base64url"), tag.toString("base64url"), ciphertext.toString("base64url")].join(".");
}

/** Decrypts what encryptSecret packed; throws when the key is wrong or the text was tampered with. */
export function decryptSecret(packed: string, key: Buffer = serverSecretKey()): string {
  const [version, iv, tag, ciphertext] = packed.split(".");
  if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
    throw new SecretKeyError("The stored secret is not in a known format.");
  }
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  try {
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SecretKeyError("The stored secret cannot be decrypted: the server's secrets key changed (C2W_SECRETS_KEY or data/.secrets-key).");
  }
}

/** The most of a key the UI may show: its last 4 characters, or less for very short keys. */
export function secretHint(plaintext: string): string {
  return plaintext.length >= 12 ? plaintext.slice(-4) : "";
}
