import "server-only";
// The resolve judge as one panel of one or more endpoints, K samples each: it asks one test case's official question
// and decides it with the app's one panel rule (panelVerdict). Used by Dify execution (CLI and job) and by the later
// judging of cases executed without a judge, so both ask the same question the same way.
import { judgeParams, OFFICIAL_JUDGE_TIMEOUT_MS } from "@/lib/judge/identity";
import type { JudgeItem } from "@/lib/judge/items";
import { panelVerdict } from "@/lib/judge/majority";
import type { Database } from "../db";
import { callCost, chatClientFor, loadEndpointConfig, redactKey } from "../endpoints/endpoints";
import { inputFingerprint, judgeIdentity, judgeSample, promptFingerprint, type CallCache, type ChatClient } from "../llm";

export interface PanelMember {
  /** The label its verdicts are stored under (the endpoint's label, or the CLI's model name). */
  label: string;
  client: ChatClient;
  /** USD for a call's tokens; null when the endpoint has no prices. */
  cost(inputTokens: number, outputTokens: number): number | null;
  /** Removes the member's credentials from error text. */
  redact(text: string): string;
}

export interface ResolveJudgePanel {
  members: PanelMember[];
  samples: number;
  /** The system prompt as sent (officialSystemPrompt of evaluation_resolve_system.txt) and the file's fingerprint. */
  systemPrompt: string;
  promptFingerprint: string;
  cache: CallCache | null;
  refresh: boolean;
}

/** One answered sample, as a JudgeVerdict row stores it. */
export interface JudgeSampleRow {
  judge: string;
  sampleIndex: number;
  verdict: boolean;
  reason: string | null;
  rawOutput: string;
  wellFormed: boolean | null;
  latencyMs: number | null;
  tokens: number | null;
  promptFingerprint: string;
  inputFingerprint: string;
  judgeIdentity: string;
}

export interface JudgeUsage {
  calls: number;
  cachedCalls: number;
  inputTokens: number;
  outputTokens: number;
  cost: number | null;
}

export interface CaseJudgement {
  /** The panel's verdict; null when it gave none (the case stays not judged). */
  verdict: boolean | null;
  /** The first answered sample's reason, as the record files report it. */
  reason: string | null;
  samples: JudgeSampleRow[];
  /** Why samples gave no verdict, credentials removed. */
  errors: string[];
  usage: JudgeUsage;
}

export const emptyJudgeUsage = (): JudgeUsage => ({ calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, cost: null });

export function addJudgeUsage(total: JudgeUsage, more: JudgeUsage): void {
  total.calls += more.calls;
  total.cachedCalls += more.cachedCalls;
  total.inputTokens += more.inputTokens;
  total.outputTokens += more.outputTokens;
  if (more.cost !== null) total.cost = (total.cost ?? 0) + more.cost;
}

/** Asks every member its samples of one case's question and decides the case with the panel rule. */
export async function judgeResolveCase(panel: ResolveJudgePanel, question: JudgeItem, signal?: AbortSignal): Promise<CaseJudgement> {
  const usage = emptyJudgeUsage();
  const samples: JudgeSampleRow[] = [];
  const errors: string[] = [];
  const byMember = new Map<string, boolean[]>();
  for (const member of panel.members) {
    for (let sampleIndex = 0; sampleIndex < panel.samples; sampleIndex += 1) {
      const sample = await judgeSample({ messages: question.messages }, sampleIndex, { client: member.client, strict: false, cache: panel.cache, refresh: panel.refresh, ...(signal ? { signal } : {}) });
      const inputTokens = sample.usage?.promptTokens ?? 0;
      const outputTokens = sample.usage?.completionTokens ?? 0;
      addJudgeUsage(usage, { calls: sample.calls, cachedCalls: sample.cached ? 1 : 0, inputTokens, outputTokens, cost: member.cost(inputTokens, outputTokens) });
      if (sample.verdict === null || sample.raw === null) {
        errors.push(member.redact(sample.error ? `${member.label}: ${sample.error.kind}: ${sample.error.message}` : `${member.label}: no verdict`));
        continue;
      }
      byMember.set(member.label, [...(byMember.get(member.label) ?? []), sample.verdict]);
      samples.push({
        judge: member.label,
        sampleIndex,
        verdict: sample.verdict,
        reason: sample.reason,
        rawOutput: sample.raw,
        wellFormed: sample.wellFormed,
        latencyMs: Math.round(sample.latencyMs),
        tokens: sample.usage ? inputTokens + outputTokens : null,
        promptFingerprint: panel.promptFingerprint,
        inputFingerprint: inputFingerprint(question),
        judgeIdentity: judgeIdentity(member.client, panel.promptFingerprint, false),
      });
    }
  }
  const verdict = panelVerdict(panel.members.map((member) => member.label), byMember);
  return { verdict, reason: samples[0]?.reason ?? null, samples, errors, usage };
}

/** A panel of one client (the CLI's judge), no cache. */
export function singleClientPanel(client: ChatClient, label: string, prompt: { systemPrompt: string; fileText: string }): ResolveJudgePanel {
  return {
    members: [{ label, client, cost: () => null, redact: (text) => text }],
    samples: 1,
    systemPrompt: prompt.systemPrompt,
    promptFingerprint: promptFingerprint(prompt.fileText),
    cache: null,
    refresh: false,
  };
}

export type PanelFromEndpoints = { ok: true; panel: ResolveJudgePanel } | { ok: false; message: string };

/**
 * A panel of stored endpoints with the official judge parameters (temperature 0, max_tokens 8192) and the judge
 * jobs' timeout per call. Refuses, in one sentence, when an endpoint no longer exists: a verdict never silently comes
 * from a smaller panel.
 */
export async function panelFromEndpoints(
  db: Database,
  judge: { endpointIds: readonly string[]; samples: number },
  prompt: { systemPrompt: string; fileText: string },
  options: { cache: CallCache | null; refresh: boolean; clientRetries?: number },
): Promise<PanelFromEndpoints> {
  const members: PanelMember[] = [];
  for (const endpointId of judge.endpointIds) {
    const config = await loadEndpointConfig(db, endpointId);
    if (!config) return { ok: false, message: "A resolve judge endpoint was deleted; choose the judge again." };
    members.push({
      label: config.label,
      client: chatClientFor(config, { params: judgeParams(), timeoutMs: OFFICIAL_JUDGE_TIMEOUT_MS, ...(options.clientRetries !== undefined ? { maxRetries: options.clientRetries } : {}) }),
      cost: (inputTokens, outputTokens) => callCost(config, inputTokens, outputTokens),
      redact: (text) => redactKey(text, config.apiKey),
    });
  }
  if (members.length === 0) return { ok: false, message: "No resolve judge endpoint was chosen." };
  return { ok: true, panel: { members, samples: judge.samples, systemPrompt: prompt.systemPrompt, promptFingerprint: promptFingerprint(prompt.fileText), cache: options.cache, refresh: options.refresh } };
}
