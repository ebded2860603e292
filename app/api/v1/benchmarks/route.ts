// GET /api/v1/benchmarks: the imported benchmarks with their slugs and sizes.
import { API_ROUTES } from "@/lib/server/api/contract";
import { apiRoute } from "@/lib/server/api/handler";
import { apiJson } from "@/lib/server/api/http";
import { listBenchmarkSummaries } from "@/lib/server/api/references";
import { database } from "@/lib/server/db";

export const dynamic = "force-dynamic";

export const GET = apiRoute(API_ROUTES.listBenchmarks, async ({ user }) => apiJson({ benchmarks: await listBenchmarkSummaries(database(), user) }));
