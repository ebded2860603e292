import "server-only";
// The call cache: a reply stored under a content address of (endpoint, model, parameters, messages, sample), so the
// same call is never paid twice. The interface is what judging needs; a directory and an in-memory store live here.

import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { callCacheMaterial, type CallIdentity } from "@/lib/judge/identity";
import { sha256 } from "../hash";
import type { TokenUsage } from "./client";

export interface CachedReply {
  content: string;
  usage: TokenUsage | null;
  /** ISO time the reply was first received. */
  storedAt: string;
}

/** Any store of replies by key; `get` answers null on a miss (and on an unreadable entry). */
export interface CallCache {
  get(key: string): Promise<CachedReply | null>;
  put(key: string, reply: CachedReply): Promise<void>;
}

/** Hex SHA-256 of callCacheMaterial: the key every CallCache implementation stores under. */
export function callCacheKey(call: CallIdentity): string {
  return sha256(callCacheMaterial(call));
}

const KEY = /^[0-9a-f]{64}$/;

function isCachedReply(value: unknown): value is CachedReply {
  if (typeof value !== "object" || value === null) return false;
  const reply = value as Partial<CachedReply>;
  return typeof reply.content === "string" && typeof reply.storedAt === "string" && (reply.usage === null || typeof reply.usage === "object");
}

/**
 * One JSON file per key under `dir/<first two hex digits>/<key>.json`, written to a temporary name and renamed, so
 * a crash never leaves a half-written entry and concurrent writers of one key leave one whole reply.
 */
export function fileCallCache(dir: string): CallCache {
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw new RangeError(`not a call-cache key: ${key}`);
    return path.join(dir, key.slice(0, 2), `${key}.json`);
  };
  return {
    async get(key) {
      try {
        const parsed: unknown = JSON.parse(await readFile(fileOf(key), "utf8"));
        return isCachedReply(parsed) ? parsed : null;
      } catch {
        return null;
      }
    },
    async put(key, reply) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const temporary = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      await writeFile(temporary, JSON.stringify(reply));
      await rename(temporary, file);
    },
  };
}

/** A process-local cache (tests, one-off runs). */
export function memoryCallCache(): CallCache & { readonly size: number } {
  const entries = new Map<string, CachedReply>();
  return {
    get size() {
      return entries.size;
    },
    async get(key) {
      return entries.get(key) ?? null;
    },
    async put(key, reply) {
      entries.set(key, reply);
    },
  };
}
