-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT,
    "passwordHash" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT 'viewer',
    "sessionVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Benchmark" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "sourceDir" TEXT,
    "importedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "importedBy" TEXT,

    CONSTRAINT "Benchmark_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BenchmarkPrompt" (
    "id" TEXT NOT NULL,
    "benchmarkId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,

    CONSTRAINT "BenchmarkPrompt_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Domain" (
    "id" TEXT NOT NULL,
    "benchmarkId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "Domain_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Task" (
    "id" TEXT NOT NULL,
    "benchmarkId" TEXT NOT NULL,
    "domainId" TEXT NOT NULL,
    "externalId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "roundCount" INTEGER NOT NULL,

    CONSTRAINT "Task_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Turn" (
    "id" TEXT NOT NULL,
    "benchmarkId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "inputVars" TEXT NOT NULL,
    "outputVars" TEXT NOT NULL,
    "keyNodes" TEXT NOT NULL,
    "fileChecks" TEXT NOT NULL,

    CONSTRAINT "Turn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TestCase" (
    "id" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "inputs" TEXT NOT NULL,
    "groundTruth" TEXT,

    CONSTRAINT "TestCase_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Model" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "family" TEXT,
    "access" TEXT,
    "provider" TEXT,

    CONSTRAINT "Model_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL,
    "benchmarkId" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "sourceFile" TEXT,
    "importedBy" TEXT,
    "importedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "coreVersion" TEXT NOT NULL,
    "scoredAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "responseCount" INTEGER NOT NULL,
    "hasResolve" BOOLEAN NOT NULL DEFAULT false,
    "status" TEXT NOT NULL DEFAULT 'complete',
    "evaluationId" TEXT,
    "runNumber" INTEGER,
    "generationMode" TEXT,

    CONSTRAINT "Run_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Response" (
    "id" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "rawText" TEXT,
    "nodeSelection" TEXT,
    "designPrinciple" TEXT,
    "workflow" TEXT,
    "generatedAt" TIMESTAMP(3),
    "generationMs" INTEGER,
    "accepted" BOOLEAN,

    CONSTRAINT "Response_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PassResult" (
    "id" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "valid" BOOLEAN NOT NULL,
    "failStep" TEXT,
    "verdictSource" TEXT NOT NULL,
    "recordedValid" BOOLEAN,
    "recordedFailStep" TEXT,
    "officialFailStep" TEXT,
    "ruleJudge" BOOLEAN,
    "deterministicValid" BOOLEAN NOT NULL,
    "disagreement" TEXT,
    "repairedFailStep" TEXT,
    "repairedRuleJudge" BOOLEAN,
    "repairs" TEXT NOT NULL DEFAULT '[]',
    "diagnosticCount" INTEGER NOT NULL DEFAULT 0,
    "topDiagnosticCode" TEXT,
    "categoryCounts" TEXT NOT NULL DEFAULT '{}',
    "coreVersion" TEXT NOT NULL,

    CONSTRAINT "PassResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Diagnostic" (
    "id" TEXT NOT NULL,
    "passResultId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "code" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "severity" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "officialStep" TEXT,
    "nodeId" TEXT,
    "edgeIndex" INTEGER,
    "paramPath" TEXT,
    "field" TEXT,
    "line" INTEGER,
    "column" INTEGER,
    "offset" INTEGER,
    "length" INTEGER,
    "targetNodeId" TEXT,
    "hint" TEXT,

    CONSTRAINT "Diagnostic_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CaseResult" (
    "id" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "verdict" BOOLEAN NOT NULL,
    "outputs" TEXT,
    "fileCheck" TEXT,
    "files" TEXT,
    "error" TEXT,
    "difyRunId" TEXT,
    "elapsedMs" INTEGER,
    "executedAt" TIMESTAMP(3),

    CONSTRAINT "CaseResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JudgeVerdict" (
    "id" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "casePosition" INTEGER NOT NULL DEFAULT 0,
    "judge" TEXT NOT NULL,
    "promptFingerprint" TEXT,
    "inputFingerprint" TEXT NOT NULL,
    "reason" TEXT,
    "verdict" BOOLEAN NOT NULL,
    "rawOutput" TEXT,
    "latencyMs" INTEGER,
    "tokens" INTEGER,
    "sampleIndex" INTEGER NOT NULL DEFAULT 0,
    "judgeIdentity" TEXT,
    "wellFormed" BOOLEAN,
    "jobId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "JudgeVerdict_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PublishedResult" (
    "id" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "modelName" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "family" TEXT,
    "access" TEXT,
    "domain" TEXT NOT NULL,
    "passRate" DOUBLE PRECISION NOT NULL,
    "resolveRate" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "PublishedResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportJob" (
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "progress" TEXT NOT NULL DEFAULT '{}',
    "summary" TEXT,
    "error" TEXT,

    CONSTRAINT "ImportJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewQueue" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "benchmarkId" TEXT NOT NULL,
    "stage" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "annotatorsPerItem" INTEGER NOT NULL DEFAULT 3,
    "filter" TEXT NOT NULL,
    "sampleSize" INTEGER NOT NULL,
    "seed" TEXT NOT NULL,
    "sourceQueueId" TEXT,
    "createdById" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewQueue_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewItem" (
    "id" TEXT NOT NULL,
    "queueId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "responseId" TEXT NOT NULL,
    "judgeVerdictId" TEXT,
    "stage" TEXT NOT NULL,
    "casePosition" INTEGER NOT NULL,
    "judge" TEXT NOT NULL,
    "verdict" BOOLEAN NOT NULL,
    "reason" TEXT,
    "inputFingerprint" TEXT NOT NULL,
    "promptFingerprint" TEXT,
    "lockedById" TEXT,
    "lockedUntil" TIMESTAMP(3),

    CONSTRAINT "ReviewItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewAssignment" (
    "id" TEXT NOT NULL,
    "queueId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "assignedById" TEXT,
    "assignedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ReviewAssignment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ReviewVote" (
    "id" TEXT NOT NULL,
    "itemId" TEXT NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "annotatorPass" BOOLEAN NOT NULL,
    "verdict" TEXT NOT NULL,
    "followedRules" TEXT,
    "comment" TEXT,
    "judgeVisible" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReviewVote_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GradingResult" (
    "id" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "rubricId" TEXT NOT NULL,
    "rubricVersion" INTEGER NOT NULL,
    "rubricFingerprint" TEXT NOT NULL,
    "passed" BOOLEAN NOT NULL,
    "grade" TEXT NOT NULL,
    "bandGrade" TEXT NOT NULL,
    "weighted" DOUBLE PRECISION NOT NULL,
    "passThreshold" DOUBLE PRECISION NOT NULL,
    "gateFailures" TEXT NOT NULL,
    "floorFailures" TEXT NOT NULL,
    "gates" TEXT NOT NULL,
    "criteria" TEXT NOT NULL,
    "reasons" TEXT NOT NULL,
    "explanation" TEXT NOT NULL,
    "judges" TEXT NOT NULL DEFAULT '[]',
    "gradedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "GradingResult_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ModelEndpoint" (
    "id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "apiKeyCipher" TEXT,
    "apiKeyHint" TEXT,
    "temperature" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "maxTokens" INTEGER,
    "concurrency" INTEGER NOT NULL DEFAULT 4,
    "rpm" INTEGER,
    "tpm" INTEGER,
    "timeoutMs" INTEGER NOT NULL DEFAULT 60000,
    "inputPricePerMTok" DOUBLE PRECISION,
    "outputPricePerMTok" DOUBLE PRECISION,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ModelEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Job" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'queued',
    "params" TEXT NOT NULL DEFAULT '{}',
    "refresh" BOOLEAN NOT NULL DEFAULT false,
    "runId" TEXT,
    "endpointId" TEXT,
    "createdBy" TEXT,
    "itemCount" INTEGER NOT NULL DEFAULT 0,
    "doneCount" INTEGER NOT NULL DEFAULT 0,
    "failedCount" INTEGER NOT NULL DEFAULT 0,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "cachedCalls" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "cost" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMP(3),
    "finishedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Job_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "JobItem" (
    "id" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "payload" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseOwner" TEXT,
    "leaseExpiresAt" TIMESTAMP(3),
    "heartbeatAt" TIMESTAMP(3),
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "result" TEXT,
    "error" TEXT,
    "calls" INTEGER NOT NULL DEFAULT 0,
    "cachedCalls" INTEGER NOT NULL DEFAULT 0,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0,
    "latencyMs" INTEGER,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "JobItem_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LlmCallCache" (
    "id" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "reply" TEXT NOT NULL,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LlmCallCache_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Setting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "updatedBy" TEXT,

    CONSTRAINT "Setting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "DifyConnection" (
    "id" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "passwordCipher" TEXT NOT NULL,
    "keepApps" BOOLEAN NOT NULL DEFAULT false,
    "runTimeoutMs" INTEGER NOT NULL DEFAULT 1200000,
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DifyConnection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Evaluation" (
    "id" TEXT NOT NULL,
    "benchmarkId" TEXT NOT NULL,
    "endpointId" TEXT,
    "mode" TEXT NOT NULL,
    "judge" TEXT NOT NULL DEFAULT '{"kind":"none"}',
    "difyConnectionId" TEXT,
    "caseFilesDir" TEXT,
    "runCount" INTEGER NOT NULL DEFAULT 1,
    "params" TEXT NOT NULL DEFAULT '{}',
    "status" TEXT NOT NULL DEFAULT 'running',
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "Evaluation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "GenerationAttempt" (
    "id" TEXT NOT NULL,
    "responseId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "message" TEXT NOT NULL,
    "raw" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "candidate" TEXT,
    "repairs" TEXT NOT NULL DEFAULT '[]',
    "issues" TEXT NOT NULL DEFAULT '[]',
    "diagnostics" TEXT NOT NULL DEFAULT '[]',
    "latencyMs" INTEGER,
    "inputTokens" INTEGER,
    "outputTokens" INTEGER,

    CONSTRAINT "GenerationAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Benchmark_fingerprint_key" ON "Benchmark"("fingerprint");

-- CreateIndex
CREATE UNIQUE INDEX "BenchmarkPrompt_benchmarkId_name_key" ON "BenchmarkPrompt"("benchmarkId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Domain_benchmarkId_name_key" ON "Domain"("benchmarkId", "name");

-- CreateIndex
CREATE INDEX "Task_domainId_idx" ON "Task"("domainId");

-- CreateIndex
CREATE UNIQUE INDEX "Task_benchmarkId_name_key" ON "Task"("benchmarkId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Turn_benchmarkId_key_key" ON "Turn"("benchmarkId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Turn_taskId_round_key" ON "Turn"("taskId", "round");

-- CreateIndex
CREATE UNIQUE INDEX "TestCase_turnId_position_key" ON "TestCase"("turnId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "Model_name_key" ON "Model"("name");

-- CreateIndex
CREATE INDEX "Run_modelId_idx" ON "Run"("modelId");

-- CreateIndex
CREATE INDEX "Run_evaluationId_idx" ON "Run"("evaluationId");

-- CreateIndex
CREATE UNIQUE INDEX "Run_benchmarkId_contentHash_key" ON "Run"("benchmarkId", "contentHash");

-- CreateIndex
CREATE INDEX "Response_turnId_idx" ON "Response"("turnId");

-- CreateIndex
CREATE INDEX "Response_runId_turnId_id_idx" ON "Response"("runId", "turnId", "id");

-- CreateIndex
CREATE INDEX "Response_turnId_runId_id_idx" ON "Response"("turnId", "runId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Response_runId_turnId_key" ON "Response"("runId", "turnId");

-- CreateIndex
CREATE UNIQUE INDEX "PassResult_responseId_key" ON "PassResult"("responseId");

-- CreateIndex
CREATE INDEX "PassResult_failStep_idx" ON "PassResult"("failStep");

-- CreateIndex
CREATE INDEX "PassResult_responseId_valid_failStep_idx" ON "PassResult"("responseId", "valid", "failStep");

-- CreateIndex
CREATE INDEX "Diagnostic_passResultId_idx" ON "Diagnostic"("passResultId");

-- CreateIndex
CREATE INDEX "Diagnostic_code_idx" ON "Diagnostic"("code");

-- CreateIndex
CREATE INDEX "Diagnostic_category_idx" ON "Diagnostic"("category");

-- CreateIndex
CREATE INDEX "CaseResult_responseId_verdict_idx" ON "CaseResult"("responseId", "verdict");

-- CreateIndex
CREATE UNIQUE INDEX "CaseResult_responseId_position_key" ON "CaseResult"("responseId", "position");

-- CreateIndex
CREATE INDEX "JudgeVerdict_stage_judge_idx" ON "JudgeVerdict"("stage", "judge");

-- CreateIndex
CREATE INDEX "JudgeVerdict_responseId_stage_casePosition_judge_verdict_idx" ON "JudgeVerdict"("responseId", "stage", "casePosition", "judge", "verdict");

-- CreateIndex
CREATE UNIQUE INDEX "JudgeVerdict_responseId_stage_casePosition_judge_sampleInde_key" ON "JudgeVerdict"("responseId", "stage", "casePosition", "judge", "sampleIndex");

-- CreateIndex
CREATE UNIQUE INDEX "PublishedResult_source_modelName_domain_key" ON "PublishedResult"("source", "modelName", "domain");

-- CreateIndex
CREATE INDEX "ReviewQueue_benchmarkId_idx" ON "ReviewQueue"("benchmarkId");

-- CreateIndex
CREATE INDEX "ReviewItem_judgeVerdictId_idx" ON "ReviewItem"("judgeVerdictId");

-- CreateIndex
CREATE INDEX "ReviewItem_responseId_idx" ON "ReviewItem"("responseId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewItem_queueId_position_key" ON "ReviewItem"("queueId", "position");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewItem_queueId_responseId_stage_casePosition_judge_key" ON "ReviewItem"("queueId", "responseId", "stage", "casePosition", "judge");

-- CreateIndex
CREATE INDEX "ReviewAssignment_userId_idx" ON "ReviewAssignment"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewAssignment_queueId_userId_key" ON "ReviewAssignment"("queueId", "userId");

-- CreateIndex
CREATE INDEX "ReviewVote_annotatorId_idx" ON "ReviewVote"("annotatorId");

-- CreateIndex
CREATE UNIQUE INDEX "ReviewVote_itemId_annotatorId_key" ON "ReviewVote"("itemId", "annotatorId");

-- CreateIndex
CREATE INDEX "GradingResult_runId_rubricId_rubricVersion_idx" ON "GradingResult"("runId", "rubricId", "rubricVersion");

-- CreateIndex
CREATE UNIQUE INDEX "GradingResult_responseId_rubricId_rubricVersion_key" ON "GradingResult"("responseId", "rubricId", "rubricVersion");

-- CreateIndex
CREATE UNIQUE INDEX "ModelEndpoint_label_key" ON "ModelEndpoint"("label");

-- CreateIndex
CREATE INDEX "Job_status_idx" ON "Job"("status");

-- CreateIndex
CREATE INDEX "Job_runId_idx" ON "Job"("runId");

-- CreateIndex
CREATE INDEX "JobItem_jobId_status_nextAttemptAt_idx" ON "JobItem"("jobId", "status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "JobItem_status_leaseExpiresAt_idx" ON "JobItem"("status", "leaseExpiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "JobItem_jobId_key_key" ON "JobItem"("jobId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "LlmCallCache_key_key" ON "LlmCallCache"("key");

-- CreateIndex
CREATE UNIQUE INDEX "DifyConnection_label_key" ON "DifyConnection"("label");

-- CreateIndex
CREATE INDEX "Evaluation_benchmarkId_idx" ON "Evaluation"("benchmarkId");

-- CreateIndex
CREATE UNIQUE INDEX "GenerationAttempt_responseId_index_key" ON "GenerationAttempt"("responseId", "index");

-- AddForeignKey
ALTER TABLE "BenchmarkPrompt" ADD CONSTRAINT "BenchmarkPrompt_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Domain" ADD CONSTRAINT "Domain_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Task" ADD CONSTRAINT "Task_domainId_fkey" FOREIGN KEY ("domainId") REFERENCES "Domain"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Turn" ADD CONSTRAINT "Turn_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Turn" ADD CONSTRAINT "Turn_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TestCase" ADD CONSTRAINT "TestCase_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Run" ADD CONSTRAINT "Run_evaluationId_fkey" FOREIGN KEY ("evaluationId") REFERENCES "Evaluation"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Response" ADD CONSTRAINT "Response_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PassResult" ADD CONSTRAINT "PassResult_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Diagnostic" ADD CONSTRAINT "Diagnostic_passResultId_fkey" FOREIGN KEY ("passResultId") REFERENCES "PassResult"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CaseResult" ADD CONSTRAINT "CaseResult_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JudgeVerdict" ADD CONSTRAINT "JudgeVerdict_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewQueue" ADD CONSTRAINT "ReviewQueue_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewQueue" ADD CONSTRAINT "ReviewQueue_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "ReviewQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_judgeVerdictId_fkey" FOREIGN KEY ("judgeVerdictId") REFERENCES "JudgeVerdict"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewItem" ADD CONSTRAINT "ReviewItem_lockedById_fkey" FOREIGN KEY ("lockedById") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewAssignment" ADD CONSTRAINT "ReviewAssignment_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "ReviewQueue"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewAssignment" ADD CONSTRAINT "ReviewAssignment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewVote" ADD CONSTRAINT "ReviewVote_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "ReviewItem"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewVote" ADD CONSTRAINT "ReviewVote_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GradingResult" ADD CONSTRAINT "GradingResult_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "JobItem" ADD CONSTRAINT "JobItem_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Evaluation" ADD CONSTRAINT "Evaluation_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Evaluation" ADD CONSTRAINT "Evaluation_difyConnectionId_fkey" FOREIGN KEY ("difyConnectionId") REFERENCES "DifyConnection"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "GenerationAttempt" ADD CONSTRAINT "GenerationAttempt_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response"("id") ON DELETE CASCADE ON UPDATE CASCADE;

