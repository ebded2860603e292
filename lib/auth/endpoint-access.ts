// Who may call each server action and route handler: the one table the authorization matrix test is generated from.
// Every export of app/actions/*.ts and every HTTP method of every app/**/route.ts must have an entry here (the test
// fails otherwise), so a new endpoint cannot ship without saying who may use it.
import type { Permission } from "./roles";

/** "public": anyone, signed in or not (health, the sign-in machinery). Otherwise the permission the endpoint checks. */
export type EndpointAccess = Permission | "public";

/** The HTTP API's routes: every one but the public document takes an access token only, never a session, so even "read" needs one. */
export const TOKEN_ROUTE_PREFIX = "app/api/v1/";

export const ENDPOINT_ACCESS: Readonly<Record<string, EndpointAccess>> = {
  "app/actions/review.ts#createQueueAction": "manageQueues",
  "app/actions/review.ts#createDerivedQueueAction": "manageQueues",
  "app/actions/review.ts#assignAnnotatorsAction": "manageQueues",
  "app/actions/review.ts#unassignAnnotatorAction": "manageQueues",
  "app/actions/review.ts#claimReviewItemAction": "annotate",
  "app/actions/review.ts#renewReviewLockAction": "annotate",
  "app/actions/review.ts#submitVoteAction": "annotate",
  "app/actions/endpoints.ts#createEndpointAction": "manageEndpoints",
  "app/actions/endpoints.ts#updateEndpointAction": "manageEndpoints",
  "app/actions/endpoints.ts#deleteEndpointAction": "manageEndpoints",
  "app/actions/endpoints.ts#testEndpointAction": "manageEndpoints",
  "app/actions/dify-connections.ts#createDifyConnectionAction": "manageEndpoints",
  "app/actions/dify-connections.ts#updateDifyConnectionAction": "manageEndpoints",
  "app/actions/dify-connections.ts#deleteDifyConnectionAction": "manageEndpoints",
  "app/actions/dify-connections.ts#testDifyConnectionAction": "manageEndpoints",
  "app/actions/dify-execution.ts#startDifyExecutionAction": "runJobs",
  "app/actions/dify-execution.ts#startResolveJudgingAction": "runJobs",
  "app/actions/dry-run.ts#startDryRunAction": "runJobs",
  "app/actions/evaluations.ts#startEvaluationAction": "runJobs",
  "app/actions/evaluations.ts#cancelEvaluationAction": "runJobs",
  "app/actions/jobs.ts#startJudgeJobAction": "runJobs",
  "app/actions/jobs.ts#controlJobAction": "runJobs",
  "app/actions/judges.ts#createDisagreementQueueAction": "manageQueues",
  "app/actions/grading.ts#gradeRunWithEvidenceAction": "import",
  "app/actions/pairwise.ts#startPairwiseAction": "runJobs",
  "app/actions/run-actions.ts#deleteRunAction": "administer",
  "app/actions/run-actions.ts#rescoreRunAction": "import",
  "app/actions/settings.ts#setDefaultBenchmarkAction": "administer",
  "app/actions/settings.ts#setCozeGithubTokenAction": "manageEndpoints",
  "app/actions/start-import.ts#startDirectoryImport": "import",
  "app/api/auth/[...nextauth]/route.ts#GET": "public",
  "app/api/auth/[...nextauth]/route.ts#POST": "public",
  "app/api/evaluations/[id]/route.ts#GET": "read",
  "app/api/export/leaderboard/route.ts#GET": "read",
  "app/api/health/route.ts#GET": "public",
  "app/runs/[runId]/download/responses/route.ts#GET": "read",
  "app/runs/[runId]/download/pass-records/route.ts#GET": "read",
  "app/api/imports/route.ts#POST": "import",
  "app/api/imports/[id]/route.ts#GET": "import",
  "app/api/jobs/route.ts#GET": "runJobs",
  "app/api/jobs/[id]/route.ts#GET": "runJobs",
  "app/api/responses/[responseId]/text/route.ts#GET": "read",
  "app/api/review/export/route.ts#GET": "manageQueues",
  "app/api/search/route.ts#GET": "read",
  "app/api/review/matching/route.ts#GET": "manageQueues",
  "app/responses/[responseId]/coze/route.ts#GET": "read",
  "app/responses/[responseId]/dry-run-file/route.ts#GET": "read",
  "app/runs/[runId]/download/resolve-records/route.ts#GET": "read",
  "app/runs/[runId]/download/bundle/route.ts#GET": "read",
  "app/actions/tokens.ts#createTokenAction": "manageTokens",
  "app/actions/tokens.ts#revokeTokenAction": "manageTokens",
  "app/actions/users.ts#inviteUserAction": "administer",
  "app/actions/users.ts#setUserRoleAction": "administer",
  "app/actions/users.ts#resetUserPasswordAction": "administer",
  "app/actions/users.ts#setUserDisabledAction": "administer",
  "app/api/v1/openapi.json/route.ts#GET": "public",
  "app/api/v1/benchmarks/route.ts#GET": "read",
  "app/api/v1/model-endpoints/route.ts#GET": "runJobs",
  "app/api/v1/model-endpoints/route.ts#POST": "manageEndpoints",
  "app/api/v1/dify-connections/route.ts#POST": "manageEndpoints",
  "app/api/v1/evaluations/route.ts#POST": "runJobs",
  "app/api/v1/evaluations/[id]/route.ts#GET": "read",
  "app/api/v1/evaluations/[id]/cancel/route.ts#POST": "runJobs",
  "app/api/v1/runs/[id]/pass-records/route.ts#GET": "read",
  "app/api/v1/runs/[id]/resolve-records/route.ts#GET": "read",
  "app/api/v1/runs/[id]/bundle/route.ts#GET": "read",
  "app/api/v1/leaderboard/route.ts#GET": "read",
};

/**
 * Endpoints that read or steer jobs (imports included). Beyond the permission above, a job is private to the user
 * who started it and to admins (lib/server/jobs/job-access.ts); the authorization matrix checks each one per owner.
 */
export const JOB_OWNER_ENDPOINTS: readonly string[] = [
  "app/api/jobs/route.ts#GET",
  "app/api/jobs/[id]/route.ts#GET",
  "app/actions/jobs.ts#controlJobAction",
  "app/api/imports/[id]/route.ts#GET",
];
