import "server-only";
// Content hashes for fingerprints and cache keys: hex SHA-256 of UTF-8 text, the one hash the server uses.
import { createHash } from "node:crypto";

export const sha256: (text: string) => string = (text) => createHash("sha256").update(text).digest("hex");
