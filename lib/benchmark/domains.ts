// The benchmark's six task domains, in the order the official statistics and the paper list them.
// One list for the statistics, the published figures and the CLI; other domains (if any) follow alphabetically.

export const BENCHMARK_DOMAINS = ["Research", "Document", "Enterprise", "Developer", "Education", "AIGC"] as const;
