// The code runner the dry-run benchmark uses: none yet (code nodes stand in with typed defaults).
import type { CodeRunner } from "../../lib/dry-run/types";

export async function sandboxCodeRunner(): Promise<{ runner: CodeRunner | null; label: string; close(): Promise<void> }> {
  return { runner: null, label: ", code nodes not executed", close: async () => {} };
}
