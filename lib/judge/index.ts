// The benchmark's LLM judge protocol as pure functions (prompts, verdict rule, items, majority, identities); calling
// a model lives in lib/server/llm, and judge choice and calibration for the views in lib/judges.

export * from "./protocol";
export * from "./items";
export * from "./majority";
export * from "./identity";
