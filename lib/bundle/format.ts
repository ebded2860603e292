// The run bundle: one zip holding what produced a run (benchmark identity, configuration, the official files, stored
// scoring, judge verdicts, executed test cases, every model call's request and reply) and a manifest with the sha256
// of every other file. Pure: the schemas every file is read with, packing, and unpacking with the manifest checked.
import { z } from "zod";
import { GENERATION_MODES } from "../generation/protocol";
import { canonicalJson } from "../judge/identity";
import { err, ok, type Result } from "../result";
import { readZip, writeZip } from "../zip/zip";

export const BUNDLE_FORMAT = "chat2workflow-run-bundle";
export const BUNDLE_VERSION = 1;
export const MANIFEST_FILE = "manifest.json";

export const BUNDLE_FILES = {
  info: "bundle.json",
  responses: "responses.json",
  passRecords: "pass-records.json",
  resolveRecords: "resolve-records.json",
  scoring: "scoring.json",
  judgeVerdicts: "judge-verdicts.json",
  cases: "cases.json",
  attempts: "attempts.json",
  calls: "calls.json",
} as const;
/** The skill files an agentic run's messages stood on, under this folder (their text stands for [SKILL.md]). */
export const SKILL_FOLDER = "skill/";

/** A problem the import found: the file, the record in it (e.g. "PaperQA round 2") and the field, when there is one. */
export interface BundleFinding {
  file: string;
  record: string | null;
  field: string | null;
  message: string;
}

export function describeFinding(finding: BundleFinding): string {
  return [finding.file, finding.record, finding.field].filter((part): part is string => part !== null).join(" › ") + `: ${finding.message}`;
}

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, "a hex sha256");

export const manifestSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  files: z.array(z.object({ path: z.string().min(1).max(300), sha256: sha256Hex, bytes: z.number().int().min(0) })),
});
export type BundleManifest = z.infer<typeof manifestSchema>;

const hashedFile = z.object({ path: z.string(), sha256: sha256Hex });

export const bundleJudgeSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("none") }),
  z.object({ kind: z.literal("rule") }),
  z.object({
    kind: z.literal("llm"),
    samples: z.number().int().min(1),
    /** The judge endpoints (a panel when several), by the label their verdicts are stored under. */
    members: z.array(z.object({ label: z.string(), model: z.string(), endpoint: z.string() })),
  }),
]);
export type BundleJudge = z.infer<typeof bundleJudgeSchema>;

export const bundleInfoSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.literal(BUNDLE_VERSION),
  exportedAt: z.string(),
  app: z.object({ name: z.string(), version: z.string(), scoringCore: z.string() }),
  run: z.object({
    id: z.string(),
    label: z.string(),
    origin: z.string(),
    status: z.string(),
    model: z.string(),
    modelDisplayName: z.string(),
    /** Scoring-core version of the run's stored verdicts. */
    coreVersion: z.string(),
    generationMode: z.enum(GENERATION_MODES).nullable(),
    /** The agent framework and version (agentic-opencode), e.g. "opencode-ai 1.3.2". */
    agentVersion: z.string().nullable(),
    runNumber: z.number().int().nullable(),
    hasResolve: z.boolean(),
    responseCount: z.number().int(),
  }),
  benchmark: z.object({
    name: z.string(),
    version: z.string(),
    /** The benchmark's fingerprint: sha256 over its dataset and prompts, as imported. */
    fingerprint: sha256Hex,
    /** sha256 of each dataset file's content (canonical JSON) and each prompt file's text. */
    files: z.array(hashedFile),
  }),
  evaluation: z
    .object({
      id: z.string(),
      mode: z.enum(GENERATION_MODES),
      runCount: z.number().int(),
      /** The evaluation's overrides of the protocol's parameters. */
      params: z.object({ temperature: z.number().optional(), maxTokens: z.number().optional() }),
      /** The model endpoint that answered (identity only: no key). */
      generation: z.object({ label: z.string(), model: z.string(), endpoint: z.string() }).nullable(),
      judge: bundleJudgeSchema,
      /** sha256 of the judge prompts the benchmark holds (prompts/evaluation_pass_system.txt, …_resolve_system.txt). */
      judgePrompts: z.array(hashedFile),
      dify: z.object({ label: z.string(), endpoint: z.string() }).nullable(),
      skill: z.object({ files: z.array(hashedFile) }).nullable(),
    })
    .nullable(),
});
export type BundleInfo = z.infer<typeof bundleInfoSchema>;

const turnRef = { task: z.string(), round: z.number().int().min(1) };

export const scoringSchema = z.array(
  z.object({
    ...turnRef,
    valid: z.boolean(),
    failStep: z.string().nullable(),
    verdictSource: z.string(),
    recordedValid: z.boolean().nullable(),
    recordedFailStep: z.string().nullable(),
    officialFailStep: z.string().nullable(),
    ruleJudge: z.boolean().nullable(),
    deterministicValid: z.boolean(),
    coreVersion: z.string(),
  }),
);
export type BundleScoring = z.infer<typeof scoringSchema>;

export const judgeVerdictsSchema = z.array(
  z.object({
    ...turnRef,
    stage: z.enum(["pass", "resolve"]),
    /** 0 for the pass stage, else the test case 1..3. */
    test: z.number().int().min(0).max(3),
    judge: z.string(),
    sample: z.number().int().min(0),
    verdict: z.boolean(),
    reason: z.string().nullable(),
    wellFormed: z.boolean().nullable(),
    promptFingerprint: z.string().nullable(),
    inputFingerprint: z.string(),
    judgeIdentity: z.record(z.string(), z.unknown()).nullable(),
    /** The call in calls.json whose reply this verdict was read from. */
    call: z.number().int().nullable(),
  }),
);
export type BundleJudgeVerdicts = z.infer<typeof judgeVerdictsSchema>;

export const casesSchema = z.array(
  z.object({
    ...turnRef,
    test: z.number().int().min(1).max(3),
    /** null: not judged (text outputs no LLM judge has answered). */
    verdict: z.boolean().nullable(),
    outputs: z.string().nullable(),
    fileCheck: z.string().nullable(),
    files: z.unknown().nullable(),
    error: z.string().nullable(),
    difyRunId: z.string().nullable(),
    elapsedMs: z.number().int().nullable(),
  }),
);
export type BundleCases = z.infer<typeof casesSchema>;

export const attemptsSchema = z.array(
  z.object({
    ...turnRef,
    index: z.number().int().min(1),
    message: z.string(),
    raw: z.string(),
    outcome: z.string(),
    candidate: z.string().nullable(),
    repairs: z.unknown(),
    issues: z.unknown(),
    diagnostics: z.unknown(),
    agentRun: z.unknown().nullable(),
    latencyMs: z.number().int().nullable(),
    inputTokens: z.number().int().nullable(),
    outputTokens: z.number().int().nullable(),
  }),
);
export type BundleAttempts = z.infer<typeof attemptsSchema>;

const chatMessage = z.object({ role: z.enum(["system", "user", "assistant"]), content: z.string() });

export const callRequestSchema = z.union([
  /** A chat-completions call: who was asked, with what parameters and messages (the skill text as [SKILL.md]). */
  z.object({ endpoint: z.string(), model: z.string(), params: z.record(z.string(), z.number()), messages: z.array(chatMessage) }),
  /** An agent run (agentic-opencode): the agent and version, the model behind it and the message it was given. */
  z.object({ agent: z.string(), endpoint: z.string(), model: z.string(), message: z.string() }),
  /** Only the attempt's message is known (the call cache no longer holds the call). */
  z.object({ message: z.string() }),
]);
export type CallRequest = z.infer<typeof callRequestSchema>;

export const callsSchema = z.array(
  z.object({
    id: z.number().int().min(0),
    kind: z.enum(["generation", "judge"]),
    ...turnRef,
    /** Generation: the call's number within its turn (attempt i is call i-1). */
    call: z.number().int().min(0).nullable(),
    stage: z.enum(["pass", "resolve"]).nullable(),
    test: z.number().int().min(0).max(3).nullable(),
    judge: z.string().nullable(),
    sample: z.number().int().min(0).nullable(),
    /** Where the reply comes from: the call cache, the stored attempt, or the stored verdict's raw reply. */
    source: z.enum(["call-cache", "attempt", "verdict"]),
    cacheKey: z.string().nullable(),
    request: callRequestSchema,
    /** The reply; null when the call timed out (then `failure` says so). */
    reply: z.object({ content: z.string() }).nullable(),
    failure: z.enum(["timeout"]).nullable(),
  }),
);
export type BundleCalls = z.infer<typeof callsSchema>;
export type BundleCall = BundleCalls[number];

// -- packing -------------------------------------------------------------------------------------------------------

export interface BundleFile {
  path: string;
  text: string;
}

/** Packs the files (in the given order) with manifest.json first; `sha256` hashes bytes (the server passes node's). */
export function packBundle(files: readonly BundleFile[], sha256: (bytes: Uint8Array) => string): Uint8Array {
  const encoder = new TextEncoder();
  const entries = files.map((file) => ({ name: file.path, data: encoder.encode(file.text) }));
  const manifest: BundleManifest = { format: BUNDLE_FORMAT, version: BUNDLE_VERSION, files: entries.map((entry) => ({ path: entry.name, sha256: sha256(entry.data), bytes: entry.data.byteLength })) };
  return writeZip([{ name: MANIFEST_FILE, data: encoder.encode(`${JSON.stringify(manifest, null, 2)}\n`) }, ...entries]);
}

export interface UnpackedBundle {
  manifest: BundleManifest;
  /** Every file the manifest lists, as text. */
  files: Map<string, string>;
  /** Files whose sha256 differs from the manifest's, or that the manifest does not list. */
  findings: BundleFinding[];
}

/** A reason to refuse the bundle outright: it cannot be read, or a file the manifest lists (or the format needs) is missing. */
export interface BundleRefusal {
  file: string;
  message: string;
}

const REQUIRED_FILES: readonly string[] = Object.values(BUNDLE_FILES);

/** Reads the zip and checks it against its manifest: missing files refuse it, altered or extra files are findings. */
export function unpackBundle(bytes: Uint8Array, sha256: (bytes: Uint8Array) => string): Result<UnpackedBundle, BundleRefusal> {
  const read = readZip(bytes);
  if (!read.ok) return err(...read.issues.map((message) => ({ file: "(bundle)", message: `not a readable zip: ${message}` })));
  const entries = new Map(read.value.map((entry) => [entry.name, entry.data]));
  const manifestBytes = entries.get(MANIFEST_FILE);
  if (!manifestBytes) return err({ file: MANIFEST_FILE, message: "missing: the bundle has no manifest" });
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let manifestJson: unknown;
  try {
    manifestJson = JSON.parse(decoder.decode(manifestBytes));
  } catch {
    return err({ file: MANIFEST_FILE, message: "not valid UTF-8 JSON" });
  }
  const manifest = manifestSchema.safeParse(manifestJson);
  if (!manifest.success) {
    const issue = manifest.error.issues[0];
    return err({ file: MANIFEST_FILE, message: `${issue?.path.join(".") || "manifest"}: ${issue?.message ?? "invalid"}` });
  }
  const refusals: BundleRefusal[] = [];
  const findings: BundleFinding[] = [];
  const files = new Map<string, string>();
  const listed = new Set(manifest.data.files.map((file) => file.path));
  for (const required of REQUIRED_FILES) if (!listed.has(required)) refusals.push({ file: required, message: "missing: the manifest does not list it" });
  for (const file of manifest.data.files) {
    const data = entries.get(file.path);
    if (!data) {
      refusals.push({ file: file.path, message: "missing: the manifest lists it but the bundle does not hold it" });
      continue;
    }
    if (sha256(data) !== file.sha256) findings.push({ file: file.path, record: null, field: null, message: "its sha256 differs from the manifest's: the file was changed after export" });
    try {
      files.set(file.path, decoder.decode(data));
    } catch {
      refusals.push({ file: file.path, message: "not valid UTF-8" });
    }
  }
  for (const name of entries.keys()) {
    if (name !== MANIFEST_FILE && !listed.has(name)) findings.push({ file: name, record: null, field: null, message: "not listed in the manifest: the file was added after export" });
  }
  if (refusals.length) return err(...refusals);
  return ok({ manifest: manifest.data, files, findings });
}

/** Parses one bundle file with its schema; a refusal names the file and the first bad field. */
export function parseBundleFile<T>(files: ReadonlyMap<string, string>, path: string, schema: z.ZodType<T>): Result<T, BundleRefusal> {
  const text = files.get(path);
  if (text === undefined) return err({ file: path, message: "missing" });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return err({ file: path, message: `not valid JSON (${error instanceof Error ? error.message : "parse error"})` });
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  return err({ file: path, message: `${issue?.path.join(".") || "(file)"}: ${issue?.message ?? "invalid"}` });
}

// -- benchmark identity --------------------------------------------------------------------------------------------

/** A benchmark's dataset and prompts, as stored. */
export interface BenchmarkContent {
  queries: unknown;
  checkPass: unknown;
  checkResolve: unknown;
  prompts: readonly { name: string; text: string }[];
}

/**
 * The content hash of each dataset file (its parsed content as canonical JSON, so formatting does not count) and each
 * prompt file (its text), in a fixed order: what a bundle names its benchmark by besides the fingerprint.
 */
export function benchmarkContentHashes(content: BenchmarkContent, hash: (text: string) => string): { path: string; sha256: string }[] {
  return [
    { path: "dataset/query.json", sha256: hash(canonicalJson(content.queries)) },
    { path: "dataset/check_pass_stage.json", sha256: hash(canonicalJson(content.checkPass)) },
    { path: "dataset/check_resolve_stage.json", sha256: hash(canonicalJson(content.checkResolve)) },
    ...[...content.prompts].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((prompt) => ({ path: `prompts/${prompt.name}.txt`, sha256: hash(prompt.text) })),
  ];
}

export function describeRefusal(refusal: BundleRefusal): string {
  return refusal.message.startsWith(refusal.file) ? refusal.message : `${refusal.file}: ${refusal.message}`;
}
