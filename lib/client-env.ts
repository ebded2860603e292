// Variables the browser may see: only NEXT_PUBLIC_* values, inlined at build time, validated once.
// Nothing secret may ever be added here; server configuration lives in lib/server/env.ts.
import { z } from "zod";

const clientEnvSchema = z.object({
  NEXT_PUBLIC_APP_NAME: z.string().min(1).default("Chat2Workflow Studio"),
});

export const clientEnv = clientEnvSchema.parse({
  // Each variable is named in full so Next.js can inline it.
  NEXT_PUBLIC_APP_NAME: process.env.NEXT_PUBLIC_APP_NAME || undefined,
});
