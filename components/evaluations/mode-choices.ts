// The three generation modes as the UI names and explains them (one sentence each).

export const MODE_CHOICES = [
  {
    value: "zero-shot",
    label: "Zero-shot",
    description: "The official protocol: the builder prompt as system message and each round asked once after the earlier rounds' answers.",
  },
  {
    value: "agentic",
    label: "Agentic",
    description: "The paper's agentic baseline: up to 5 attempts per round with the official tag checks, static validation and four auto-repairs.",
  },
  {
    value: "feedback",
    label: "Error feedback",
    description: "Agentic, but attempts 2–5 tell the model what was wrong with its previous attempt, using our located diagnostics.",
  },
] as const;
