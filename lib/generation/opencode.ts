// The paper's agentic baseline as data: how the official code reads `opencode run --format json` (NDJSON events into
// steps), which step it keeps, and the run-only opencode configuration that points opencode at the user's endpoint.
// Pure and linear in the output's size; a stdout the official parser would crash on is a failure, never a throw.

import { isJsonObject, pyStrip, type JsonValue } from "@/lib/workflow/python-values";

/** The npm package that ships the opencode binary, the version pinned here and the version the official code pins. */
export const OPENCODE_PACKAGE = "opencode-ai";
export const OPENCODE_PINNED_VERSION = "1.3.2";
export const OFFICIAL_OPENCODE_VERSION = "1.3.17";
/** The provider id the run's configuration gives the user's endpoint: models are named `c2w/<model>`. */
export const OPENCODE_PROVIDER_ID = "c2w";
/** The official wall clock of one `opencode run` (chatllm_opencode.py). */
export const OPENCODE_TIMEOUT_MS = 300_000;
/** The environment variable the run's configuration reads the API key from (the key is never written to disk). */
export const OPENCODE_KEY_VARIABLE = "C2W_OPENCODE_API_KEY";
/** Tools the skill forbids ("no shell commands", "no file output") and the web, denied here for the server's safety. */
export const DENIED_TOOLS = ["bash", "edit", "webfetch", "external_directory"] as const;

const WORKFLOW_TAGS = ["</node_selection>", "</design_principle>", "</workflow>"];
// Python's str.splitlines() boundaries (\r\n counts once).
const PY_LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

export type StepsResult = { ok: true; steps: string[]; sessionId: string | null; events: number } | { ok: false; reason: string };

const get = (value: JsonValue | undefined, key: string): JsonValue | undefined => (isJsonObject(value) ? value[key] : undefined);
/** Python truthiness of a JSON value. */
const truthy = (value: JsonValue | undefined): boolean =>
  value !== undefined && value !== null && value !== false && value !== 0 && value !== "" && !(Array.isArray(value) ? value.length === 0 : isJsonObject(value) && Object.keys(value).length === 0);

/**
 * The official `_parse_opencode_output`: every JSON line is an event; `step_start` resets the step text, `text`
 * appends `content` (else `part.text`), `step_finish` keeps the text when it is not blank (without clearing it).
 */
export function opencodeSteps(stdout: string): StepsResult {
  const steps: string[] = [];
  let current = "";
  let sessionId: string | null = null;
  let events = 0;
  for (const rawLine of stdout.split(PY_LINE_BREAK)) {
    const line = pyStrip(rawLine);
    if (line === "") continue;
    let event: JsonValue;
    try {
      event = JSON.parse(line) as JsonValue;
    } catch {
      continue;
    }
    if (!isJsonObject(event)) return { ok: false, reason: `opencode printed a JSON line that is not an event object (the official parser raises here): ${line.slice(0, 80)}` };
    events += 1;
    const type = event.type ?? "";
    if (sessionId === null && typeof event.sessionID === "string") sessionId = event.sessionID;
    if (type === "step_start") current = "";
    if ((type === "session.created" || type === "session.updated") && !isJsonObject(event.properties ?? {})) {
      return { ok: false, reason: "a session event's properties are not an object (the official parser raises here)" };
    }
    if (type === "text") {
      const content = event.content;
      const part = event.part;
      if (!truthy(content) && part !== undefined && !isJsonObject(part)) return { ok: false, reason: "a text event's part is not an object (the official parser raises here)" };
      const text = truthy(content) ? content : (get(part, "text") ?? "");
      if (typeof text !== "string") return { ok: false, reason: "a text event's text is not a string (the official parser raises here)" };
      current += text;
    }
    if (type === "step_finish" && pyStrip(current) !== "") steps.push(current);
  }
  return { ok: true, steps, sessionId, events };
}

export interface ChosenStep {
  /** The response kept: the chosen step, or the whole stdout when there were no steps. */
  text: string;
  /** The official has_tags: whether a step with </workflow> was found. */
  hasTags: boolean;
  /** The chosen step's index, or null when stdout stands in. */
  index: number | null;
}

/** The official `_select_best_response`: the last step with all three closing tags, else the last with </workflow>, else the last. */
export function chooseStep(steps: readonly string[], stdout: string): ChosenStep {
  if (steps.length === 0) return { text: stdout, hasTags: false, index: null };
  for (let index = steps.length - 1; index >= 0; index--) {
    if (WORKFLOW_TAGS.every((tag) => (steps[index] as string).includes(tag))) return { text: steps[index] as string, hasTags: true, index };
  }
  for (let index = steps.length - 1; index >= 0; index--) {
    if ((steps[index] as string).includes("</workflow>")) return { text: steps[index] as string, hasTags: true, index };
  }
  return { text: steps.at(-1) as string, hasTags: false, index: steps.length - 1 };
}

export interface ProviderSettings {
  baseURL: string;
  model: string;
}

/**
 * The configuration written for one generation run only: the user's OpenAI-compatible endpoint as the only provider
 * (its key read from the environment), no auto-update, no sharing, no telemetry, and the tools the skill forbids
 * denied.
 */
export function opencodeConfig(settings: ProviderSettings): Record<string, unknown> {
  return {
    $schema: "https://opencode.ai/config.json",
    autoupdate: false,
    share: "disabled",
    enabled_providers: [OPENCODE_PROVIDER_ID],
    provider: {
      [OPENCODE_PROVIDER_ID]: {
        npm: "@ai-sdk/openai-compatible",
        name: "Chat2Workflow Studio endpoint",
        options: { baseURL: settings.baseURL, apiKey: `{env:${OPENCODE_KEY_VARIABLE}}` },
        models: { [settings.model]: { name: settings.model } },
      },
    },
    permission: Object.fromEntries(DENIED_TOOLS.map((tool) => [tool, "deny"])),
    experimental: { openTelemetry: false },
  };
}

/** `-m` as opencode reads it: provider/model. */
export function opencodeModel(model: string): string {
  return `${OPENCODE_PROVIDER_ID}/${model}`;
}
