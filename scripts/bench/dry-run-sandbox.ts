// The code runner the dry-run benchmark uses: the sandbox processes (lib/server/sandbox), one per core.
import { availableParallelism } from "node:os";
import type { CodeRunner } from "../../lib/dry-run/types";
import { createSandboxCodeRunner } from "../../lib/server/sandbox/code-runner";

export async function sandboxCodeRunner(): Promise<{ runner: CodeRunner | null; label: string; close(): Promise<void> }> {
  const size = Math.max(1, Math.min(4, availableParallelism()));
  const runner = createSandboxCodeRunner({ size });
  return { runner, label: `, code nodes run in ${size} sandbox processes`, close: () => runner.close() };
}
