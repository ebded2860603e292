// Whether the opencode agent can run here (the pinned package's binary and ripgrep on PATH); tests that need it
// skip with the reason when it cannot.
import { opencodeInstall } from "@/lib/server/generation/opencode";

const install = opencodeInstall();

export const opencodeMissingReason: string | null = install.ok ? null : install.reason;

if (opencodeMissingReason) console.warn(`[skip] opencode: ${opencodeMissingReason}`);
