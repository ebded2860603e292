import "server-only";
// Unexpected failures: the details (message, stack, paths) go to the server log under a short id, and the user sees
// one sentence with that id, never the raw message.
import { randomBytes } from "node:crypto";

export function newErrorId(): string {
  return randomBytes(5).toString("hex");
}

/** Logs an unexpected error with a fresh id and returns the sentence to show (with the id). */
export function reportUnexpected(error: unknown, where: string): { errorId: string; message: string } {
  const errorId = newErrorId();
  console.error(`[error ${errorId}] ${where}:`, error);
  return { errorId, message: `Something went wrong on the server (error id ${errorId}). Nothing was changed; try again or report the id.` };
}

/** A unique constraint refused the write (Prisma's P2002): e.g. a name already taken. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
