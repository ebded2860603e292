import "server-only";
// The call cache in the app database (LlmCallCache): replies by content address, shared by every worker and job,
// so the same call is never paid twice across jobs and restarts.
import type { Database } from "../db";
import type { CachedReply, CallCache } from "../llm";

function parseReply(text: string): CachedReply | null {
  try {
    const value = JSON.parse(text) as Partial<CachedReply>;
    return typeof value.content === "string" && typeof value.storedAt === "string" ? { content: value.content, usage: value.usage ?? null, storedAt: value.storedAt } : null;
  } catch {
    return null;
  }
}

export function databaseCallCache(db: Database): CallCache {
  return {
    async get(key) {
      const row = await db.llmCallCache.findUnique({ where: { key }, select: { reply: true } });
      return row ? parseReply(row.reply) : null;
    },
    async put(key, reply) {
      const data = {
        reply: JSON.stringify(reply),
        inputTokens: reply.usage?.promptTokens ?? null,
        outputTokens: reply.usage?.completionTokens ?? null,
      };
      // A refreshed call replaces the stored reply.
      await db.llmCallCache.upsert({ where: { key }, create: { key, ...data }, update: data });
    },
  };
}
