// The scoring core's version, stored beside every deterministic verdict so re-scored runs can be told apart.
// Bump it whenever a change to parsing, conversion, analysis, the rule judge or repairs can change a verdict.

export const CORE_VERSION = "2026.11.22-1";
