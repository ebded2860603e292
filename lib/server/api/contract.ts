import "server-only";
// The HTTP API (v1) as data: every route with its method, path, access-table key, the zod schemas of its body and
// answers, and its error statuses. The handlers validate with these schemas and the OpenAPI document is generated
// from them, so the two cannot drift; request schemas reuse the settings pages' field schemas where a rule exists.
import { z } from "zod";
import { API_ERROR_CODES, type ApiErrorCode } from "@/lib/api/errors";
import { runRecordSchema } from "@/lib/benchmark/runs";
import { GENERATION_MODES } from "@/lib/generation/protocol";
import { MAX_JUDGE_SAMPLES } from "@/lib/judge/majority";
import { difyConnectionFieldsSchema } from "../dify-connections/connections";
import { endpointFieldsSchema } from "../endpoints/endpoints";
import { MAX_EVALUATION_RUNS } from "../evaluations/types";

const reference = z.string().trim().min(1).max(200);

export const errorSchema = z
  .object({ error: z.object({ code: z.enum(API_ERROR_CODES), message: z.string().describe("One sentence; for 422 it names the field.") }) })
  .describe("Every error answer.");

export const benchmarkListSchema = z.object({
  benchmarks: z.array(
    z.object({
      id: z.string(),
      slug: z.string().describe("What the app's URLs name the benchmark by (?benchmark=): its name, or its id when two imports share a name."),
      name: z.string(),
      taskCount: z.number().int(),
      turnCount: z.number().int(),
    }),
  ),
});

export const endpointListSchema = z.object({
  endpoints: z.array(z.object({ id: z.string(), label: z.string(), baseUrl: z.string(), model: z.string(), hasKey: z.boolean().describe("Whether an API key is stored; the key itself is never answered.") })),
});

export const createEndpointSchema = z
  .object({
    label: endpointFieldsSchema.shape.label,
    baseUrl: endpointFieldsSchema.shape.baseUrl,
    model: endpointFieldsSchema.shape.model,
    apiKey: z.string().trim().min(1).max(500).optional().describe("Stored encrypted; never answered or logged."),
    concurrency: endpointFieldsSchema.shape.concurrency.optional().describe("Calls at once (default 4)."),
    timeoutSeconds: z.number().int().min(1).max(600).optional().describe("Per-call timeout in seconds (default 60)."),
    temperature: endpointFieldsSchema.shape.temperature.optional().describe("Default temperature when judging (default 0)."),
    maxTokens: z.number().int().positive().optional().describe("Default max tokens when judging (default: none)."),
  })
  .strict();

export const createDifyConnectionSchema = z
  .object({
    label: difyConnectionFieldsSchema.shape.label,
    baseUrl: difyConnectionFieldsSchema.shape.baseUrl,
    email: difyConnectionFieldsSchema.shape.email,
    password: z.string().min(1).max(500).describe("The console account's password; stored encrypted, never answered."),
    runTimeoutSeconds: z.number().int().min(10).max(6 * 60 * 60).optional().describe("Timeout of one workflow run (default 1200)."),
  })
  .strict();

export const createdSchema = z.object({ id: z.string(), label: z.string() });

const apiJudgeSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("llm"),
      endpoints: z.array(reference).min(1).max(9).describe("Judge endpoints by id or label: one is a judge, several a panel."),
      samples: z.number().int().min(1).max(MAX_JUDGE_SAMPLES).default(1),
    })
    .strict(),
  z.object({ kind: z.literal("rule") }).strict(),
  z.object({ kind: z.literal("none") }).strict(),
]);

export const startEvaluationRequestSchema = z
  .object({
    benchmark: reference.describe("The benchmark's id or slug (name)."),
    endpoint: reference.describe("The model endpoint to evaluate, by id or label."),
    mode: z.enum(GENERATION_MODES),
    runs: z.number().int().min(1).max(MAX_EVALUATION_RUNS).default(1),
    judge: apiJudgeSchema.default({ kind: "none" }),
    dify: z
      .object({
        connection: reference.describe("A Dify connection by id or label."),
        caseFilesDir: z.string().trim().min(1).max(1_000).describe("The test cases' input files: a server directory inside IMPORT_ALLOWED_DIRS."),
      })
      .strict()
      .optional(),
    temperature: z.number().min(0).max(2).optional(),
    maxTokens: z.number().int().min(1).max(1_000_000).optional(),
  })
  .strict();
export type StartEvaluationRequest = z.output<typeof startEvaluationRequestSchema>;

export const evaluationCreatedSchema = z.object({ id: z.string(), runs: z.array(z.object({ id: z.string() })) });

export const evaluationSchema = z.object({
  id: z.string(),
  status: z.enum(["running", "succeeded", "failed", "cancelled"]).describe("running until generation, judging and Dify execution have all finished."),
  mode: z.enum(GENERATION_MODES),
  judge: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("llm"), endpoints: z.array(z.string()).describe("Labels of the judge endpoints (their verdicts are stored under these)."), samples: z.number().int() }),
    z.object({ kind: z.literal("rule") }),
    z.object({ kind: z.literal("none") }),
  ]),
  runs: z.array(
    z.object({
      id: z.string(),
      status: z.enum(["in-progress", "complete", "failed", "cancelled"]),
      turns: z.object({
        total: z.number().int(),
        stored: z.number().int(),
        pass: z.number().int().describe("Stored turns the evaluation's judge passes."),
        fail: z.number().int(),
      }),
    }),
  ),
  jobs: z.array(z.object({ id: z.string(), kind: z.string().describe("generate, judge or resolve (Dify execution)."), status: z.string() })),
});

export const evaluationCancelledSchema = z.object({ id: z.string(), status: z.enum(["running", "succeeded", "failed", "cancelled"]) });

export const passRecordsSchema = z
  .array(runRecordSchema().pick({ task: true, round: true, node_selection: true, design_principle: true, workflow: true, valid: true, has_been_judged: true, fail_step: true, reason: true, api_key: true }))
  .describe("The official pass record file (pass_eval_<model>.json), byte for byte as the run page downloads it.");

export const resolveRecordsSchema = z.array(runRecordSchema()).describe("The official resolve record file (resolve_eval_<model>.json), byte for byte as the run page downloads it.");

export const leaderboardSchema = z.object({
  rows: z.array(
    z.object({
      model: z.string(),
      configuration: z.string().describe('How the row\'s runs were made and judged ("official recorded run", "Zero-shot (official) · T 0.7 · …"); rows of one model differ by it.'),
      judge: z.string().describe("The judge whose verdicts the figures count: each run's own judge."),
      scope: z.enum(["overall", "domain", "round"]),
      key: z.string().describe('"all", the domain name, or the round number.'),
      passNum: z.number(),
      passDen: z.number(),
      resolveNum: z.number().nullable(),
      resolveDen: z.number().nullable(),
      predictedExecutionNum: z.number().nullable().describe("Ours, not a resolve rate: dry-run executions (mock model) predicted to reach the judge; null without dry-run results and on domain and round rows."),
      predictedExecutionDen: z.number().nullable().describe("Dry-run executions counted: those of runs whose every passing turn was dry-run."),
      predictedExecutionTurns: z.number().nullable().describe("Passing turns the counted executions cover."),
      predictedExecutionRuns: z.number().nullable().describe("Runs counted (every passing turn dry-run)."),
      predictedExecutionPartialRuns: z.number().nullable().describe("Runs only partly dry-run: named here, never counted."),
      predictedExecutionBy: z.string().nullable().describe("What made the figure: a dry run with the mock model, a prediction of Dify's execution."),
    }),
  ),
});

/** The schemas of the document's components, by name. */
export const API_SCHEMAS = {
  Error: errorSchema,
  BenchmarkList: benchmarkListSchema,
  EndpointList: endpointListSchema,
  CreateEndpoint: createEndpointSchema,
  CreateDifyConnection: createDifyConnectionSchema,
  Created: createdSchema,
  StartEvaluation: startEvaluationRequestSchema,
  EvaluationCreated: evaluationCreatedSchema,
  Evaluation: evaluationSchema,
  EvaluationCancelled: evaluationCancelledSchema,
  PassRecords: passRecordsSchema,
  ResolveRecords: resolveRecordsSchema,
  Leaderboard: leaderboardSchema,
} as const;
export type ApiSchemaName = keyof typeof API_SCHEMAS;

export interface ApiRouteSpec {
  /** The route's entry in lib/auth/endpoint-access.ts (the authorization table the matrix test is generated from). */
  key: string;
  method: "GET" | "POST";
  /** OpenAPI path, e.g. /api/v1/evaluations/{id}. */
  path: string;
  summary: string;
  /** Who may call it, in words (the permission itself is the access table's). */
  who: string;
  request?: ApiSchemaName;
  query?: { name: string; description: string; required: boolean }[];
  success: { status: 200 | 201; schema?: ApiSchemaName; contentType?: "application/json" | "application/zip"; description: string };
  errors: ApiErrorCode[];
}

const AUTH_ERRORS: ApiErrorCode[] = ["unauthenticated", "forbidden", "rate_limited"];
const BODY_ERRORS: ApiErrorCode[] = ["malformed", "too_large", "invalid_field"];

export const API_ROUTES = {
  openapi: {
    key: "app/api/v1/openapi.json/route.ts#GET",
    method: "GET",
    path: "/api/v1/openapi.json",
    summary: "This document.",
    who: "anyone (no token)",
    success: { status: 200, description: "The OpenAPI 3.1 document of the API." },
    errors: [],
  },
  listBenchmarks: {
    key: "app/api/v1/benchmarks/route.ts#GET",
    method: "GET",
    path: "/api/v1/benchmarks",
    summary: "The imported benchmarks.",
    who: "any token",
    success: { status: 200, schema: "BenchmarkList", description: "Every benchmark, default first." },
    errors: AUTH_ERRORS,
  },
  listEndpoints: {
    key: "app/api/v1/model-endpoints/route.ts#GET",
    method: "GET",
    path: "/api/v1/model-endpoints",
    summary: "The model endpoints (never their keys).",
    who: "admin, researcher",
    success: { status: 200, schema: "EndpointList", description: "Every model endpoint." },
    errors: AUTH_ERRORS,
  },
  createEndpoint: {
    key: "app/api/v1/model-endpoints/route.ts#POST",
    method: "POST",
    path: "/api/v1/model-endpoints",
    summary: "Adds an OpenAI-compatible model endpoint.",
    who: "admin",
    request: "CreateEndpoint",
    success: { status: 201, schema: "Created", description: "The new endpoint." },
    errors: [...AUTH_ERRORS, ...BODY_ERRORS, "conflict"],
  },
  createDifyConnection: {
    key: "app/api/v1/dify-connections/route.ts#POST",
    method: "POST",
    path: "/api/v1/dify-connections",
    summary: "Adds a Dify connection for executing test cases.",
    who: "admin",
    request: "CreateDifyConnection",
    success: { status: 201, schema: "Created", description: "The new connection." },
    errors: [...AUTH_ERRORS, ...BODY_ERRORS, "conflict"],
  },
  startEvaluation: {
    key: "app/api/v1/evaluations/route.ts#POST",
    method: "POST",
    path: "/api/v1/evaluations",
    summary: "Starts an evaluation: its runs are generated, judged and (with dify) executed by the workers.",
    who: "admin, researcher",
    request: "StartEvaluation",
    success: { status: 201, schema: "EvaluationCreated", description: "The evaluation and its runs." },
    errors: [...AUTH_ERRORS, ...BODY_ERRORS],
  },
  getEvaluation: {
    key: "app/api/v1/evaluations/[id]/route.ts#GET",
    method: "GET",
    path: "/api/v1/evaluations/{id}",
    summary: "An evaluation's status, its runs' turn counts and its jobs (poll until status is not running).",
    who: "any token",
    success: { status: 200, schema: "Evaluation", description: "The evaluation." },
    errors: [...AUTH_ERRORS, "not_found"],
  },
  cancelEvaluation: {
    key: "app/api/v1/evaluations/[id]/cancel/route.ts#POST",
    method: "POST",
    path: "/api/v1/evaluations/{id}/cancel",
    summary: "Cancels a running evaluation; turns already stored stay.",
    who: "admin, researcher",
    success: { status: 200, schema: "EvaluationCancelled", description: "The evaluation, now cancelled." },
    errors: [...AUTH_ERRORS, "not_found", "conflict"],
  },
  passRecords: {
    key: "app/api/v1/runs/[id]/pass-records/route.ts#GET",
    method: "GET",
    path: "/api/v1/runs/{id}/pass-records",
    summary: "The run's official pass record file.",
    who: "any token",
    success: { status: 200, schema: "PassRecords", description: "The file, as the run page downloads it." },
    errors: [...AUTH_ERRORS, "not_found"],
  },
  resolveRecords: {
    key: "app/api/v1/runs/[id]/resolve-records/route.ts#GET",
    method: "GET",
    path: "/api/v1/runs/{id}/resolve-records",
    summary: "The run's official resolve record file.",
    who: "any token",
    success: { status: 200, schema: "ResolveRecords", description: "The file, as the run page downloads it." },
    errors: [...AUTH_ERRORS, "not_found"],
  },
  runBundle: {
    key: "app/api/v1/runs/[id]/bundle/route.ts#GET",
    method: "GET",
    path: "/api/v1/runs/{id}/bundle",
    summary: "The run bundle: one zip with what produced the run, verifiable by npm run import -- --bundle (docs/api.md).",
    who: "any token",
    success: { status: 200, contentType: "application/zip", description: "The bundle (manifest.json lists every file with its sha256)." },
    errors: [...AUTH_ERRORS, "not_found"],
  },
  leaderboard: {
    key: "app/api/v1/leaderboard/route.ts#GET",
    method: "GET",
    path: "/api/v1/leaderboard",
    summary: "The measured leaderboard rows, as npm run export -- leaderboard --format json prints them.",
    who: "any token",
    query: [{ name: "benchmark", description: "The benchmark's id or slug (default: the default benchmark).", required: false }],
    success: { status: 200, schema: "Leaderboard", description: "Rows overall, per domain and per round 1-3." },
    errors: [...AUTH_ERRORS, "not_found"],
  },
} as const satisfies Record<string, ApiRouteSpec>;
