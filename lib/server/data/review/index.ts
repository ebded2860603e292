import "server-only";
// The review data API in one import: queues, assignments, item claims and locks, votes, agreement and the export,
// each in its own module here. Re-exports only what pages, actions, scripts and tests use; helpers stay private.
export { countMatchingVerdicts, createDerivedQueue, createQueue, getQueue, listQueues, listReviewOptions } from "./queues";
export type { BenchmarkReviewOptions, QueueSummary, ReviewOptions } from "./queues";
export { assignAnnotators, listAnnotators, unassignAnnotator } from "./assignments";
export type { AnnotatorOption } from "./assignments";
export { claimReviewItem, renewReviewLock } from "./claims";
export type { ClaimOutcome, ClaimRequest, MyVote, ReviewItemView } from "./claims";
export { blindPendingResponseIds, countRunVotes, submitReviewVote } from "./votes";
export { blindVisibility, couldSeeJudgeVerdict, WITHHELD_NOTICE } from "./blind-visibility";
export type { BlindVisibility, VisibilityScope } from "./blind-visibility";
export type { VoteOutcome, VoteProblem } from "./votes";
export { getAgreementOverview, getItemDetail, getQueueAgreement } from "./agreement";
export type { AgreementOverview, ItemDetail, QueueAgreement } from "./agreement";
export { listAnnotationRows } from "./export";
export type { QueueProblem } from "./shared";
