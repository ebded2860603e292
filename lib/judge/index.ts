// The benchmark's LLM judge protocol as pure functions (prompts, verdict rule, items, majority, identities); calling
// a model lives in lib/server/llm. Judge choice, a run's own judge and calibration import their own modules here.

export * from "./protocol";
export * from "./items";
export * from "./majority";
export * from "./identity";
