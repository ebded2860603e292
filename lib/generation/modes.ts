// The generation modes as people see them: a label saying whose protocol it is (the paper's or this project's) and
// one paragraph saying what the mode sends the model. One home for every page, export and log that names a mode.

import { OFFICIAL_OPENCODE_VERSION, OPENCODE_PINNED_VERSION } from "./opencode";
import type { GenerationMode } from "./protocol";

export interface ModeInfo {
  value: GenerationMode;
  label: string;
  /** "official": the paper's protocol; "ours": added by this project. */
  origin: "official" | "ours";
  description: string;
}

export const MODE_INFO: readonly ModeInfo[] = [
  {
    value: "zero-shot",
    label: "Zero-shot (official)",
    origin: "official",
    description: "The official protocol: the builder prompt as system message and each round asked once after the earlier rounds' answers.",
  },
  {
    value: "agentic-opencode",
    label: "Agentic with opencode (official)",
    origin: "official",
    description:
      `The paper's agentic baseline: the opencode agent (opencode-ai ${OPENCODE_PINNED_VERSION} here; the paper pins ${OFFICIAL_OPENCODE_VERSION}, which npm does not have) runs each attempt ` +
      "in a fresh session in a sandbox copy of the skill folder, with the SKILL.md text inlined and earlier rounds as text: up to 5 attempts per round, 300 s each, " +
      "and the official four auto-repairs. opencode runs on this server against the endpoint only; the tools the skill forbids (shell, file edits, web fetch) are denied.",
  },
  {
    value: "agentic",
    label: "Agentic, no agent framework (ours)",
    origin: "ours",
    description:
      "Ours: the official agentic message, attempts, checks and repairs, but each attempt is one chat call to the endpoint, with no agent, no tools and no agent system prompt.",
  },
  {
    value: "feedback",
    label: "Error feedback (ours)",
    origin: "ours",
    description:
      "Ours: agentic with no agent framework, and attempts 2–5 also tell the model what was wrong with its previous attempt: the official static checks' issues and our " +
      "diagnostics found from the answer and the instruction alone (format, graph, semantics, and variables the instruction names as “(variable X)” that no start " +
      "input or End output has). Never the hidden check data: no key nodes, expected outputs or test cases.",
  },
];

/** The mode's label, or the stored value itself for a mode this version does not know. */
export function modeLabel(mode: string | null | undefined): string {
  return MODE_INFO.find((info) => info.value === mode)?.label ?? mode ?? "";
}
