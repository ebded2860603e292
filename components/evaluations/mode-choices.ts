// The generation modes as the New evaluation page offers them (one sentence or paragraph each; lib/generation/modes).
import { MODE_INFO } from "@/lib/generation/modes";

export const MODE_CHOICES = MODE_INFO;
