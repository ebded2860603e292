import type { SpawnSyncReturns } from "node:child_process";

export function offlinePrismaEnv(baseEnv?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export function runPrisma(
  args: string[],
  options?: { env?: NodeJS.ProcessEnv; stdio?: "inherit" | "pipe" },
): SpawnSyncReturns<string>;
