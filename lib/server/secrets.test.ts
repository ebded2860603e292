import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, parseSecretKey, secretHint } from "./secrets";

describe("secret encryption (AES-256-GCM)", () => {
  const key = randomBytes(32);

  it("round-trips a key and never stores the plaintext", () => {
    const packed = encryptSecret("sk-test-1234567890abcdef", key);
    expect(packed.startsWith("v1.")).toBe(true);
    expect(packed).not.toContain("sk-test");
    expect(packed).not.toContain("abcdef");
    expect(decryptSecret(packed, key)).toBe("sk-test-1234567890abcdef");
  });

  it("uses a fresh IV each time, so equal keys do not look equal at rest", () => {
    expect(encryptSecret("same", key)).not.toBe(encryptSecret("same", key));
  });

  it("refuses a wrong key and a tampered ciphertext", () => {
    const packed = encryptSecret("sk-secret", key);
    expect(() => decryptSecret(packed, randomBytes(32))).toThrow(/cannot be decrypted/);
    const parts = packed.split(".");
    const body = Buffer.from(parts[3]!, "base64url");
    body[0] = body[0]! ^ 1;
    expect(() => decryptSecret([parts[0], parts[1], parts[2], body.toString("base64url")].join("."), key)).toThrow(/cannot be decrypted/);
    expect(() => decryptSecret("plain", key)).toThrow(/known format/);
  });

  it("reads keys in base64 and hex and rejects other lengths", () => {
    const raw = randomBytes(32);
    expect(parseSecretKey(raw.toString("base64")).equals(raw)).toBe(true);
    expect(parseSecretKey(raw.toString("hex")).equals(raw)).toBe(true);
    expect(() => parseSecretKey("short")).toThrow(/32 bytes/);
  });

  it("hints at most the last 4 characters, and nothing of short keys", () => {
    expect(secretHint("sk-abcdefghijklmnop")).toBe("mnop");
    expect(secretHint("tiny-key")).toBe("");
  });
});
