-- CreateTable
CREATE TABLE "Benchmark" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "sourceDir" TEXT,
    "importedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "importedBy" TEXT
);

-- CreateTable
CREATE TABLE "BenchmarkPrompt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "benchmarkId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    CONSTRAINT "BenchmarkPrompt_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Domain" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "benchmarkId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    CONSTRAINT "Domain_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Task" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "benchmarkId" TEXT NOT NULL,
    "domainId" TEXT NOT NULL,
    "externalId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "roundCount" INTEGER NOT NULL,
    CONSTRAINT "Task_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Task_domainId_fkey" FOREIGN KEY ("domainId") REFERENCES "Domain" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Turn" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "benchmarkId" TEXT NOT NULL,
    "taskId" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "instruction" TEXT NOT NULL,
    "inputVars" TEXT NOT NULL,
    "outputVars" TEXT NOT NULL,
    "keyNodes" TEXT NOT NULL,
    "fileChecks" TEXT NOT NULL,
    CONSTRAINT "Turn_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Turn_taskId_fkey" FOREIGN KEY ("taskId") REFERENCES "Task" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "TestCase" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "turnId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "inputs" TEXT NOT NULL,
    "groundTruth" TEXT,
    CONSTRAINT "TestCase_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Model" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "family" TEXT,
    "access" TEXT,
    "provider" TEXT
);

-- CreateTable
CREATE TABLE "Run" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "benchmarkId" TEXT NOT NULL,
    "modelId" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "origin" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "sourceFile" TEXT,
    "importedBy" TEXT,
    "importedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "coreVersion" TEXT NOT NULL,
    "scoredAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "responseCount" INTEGER NOT NULL,
    "hasResolve" BOOLEAN NOT NULL DEFAULT false,
    CONSTRAINT "Run_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Response" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "runId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "rawText" TEXT,
    "nodeSelection" TEXT,
    "designPrinciple" TEXT,
    "workflow" TEXT,
    CONSTRAINT "Response_runId_fkey" FOREIGN KEY ("runId") REFERENCES "Run" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Response_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PassResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    CONSTRAINT "PassResult_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Diagnostic" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    CONSTRAINT "Diagnostic_passResultId_fkey" FOREIGN KEY ("passResultId") REFERENCES "PassResult" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "CaseResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "responseId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "verdict" BOOLEAN NOT NULL,
    "outputs" TEXT,
    "fileCheck" TEXT,
    CONSTRAINT "CaseResult_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "JudgeVerdict" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "JudgeVerdict_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "PublishedResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "source" TEXT NOT NULL,
    "modelName" TEXT NOT NULL,
    "displayName" TEXT NOT NULL,
    "family" TEXT,
    "access" TEXT,
    "domain" TEXT NOT NULL,
    "passRate" REAL NOT NULL,
    "resolveRate" REAL NOT NULL
);

-- CreateTable
CREATE TABLE "ImportJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "status" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    "progress" TEXT NOT NULL DEFAULT '{}',
    "summary" TEXT,
    "error" TEXT
);

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
CREATE UNIQUE INDEX "Run_benchmarkId_contentHash_key" ON "Run"("benchmarkId", "contentHash");

-- CreateIndex
CREATE INDEX "Response_turnId_idx" ON "Response"("turnId");

-- CreateIndex
CREATE UNIQUE INDEX "Response_runId_turnId_key" ON "Response"("runId", "turnId");

-- CreateIndex
CREATE UNIQUE INDEX "PassResult_responseId_key" ON "PassResult"("responseId");

-- CreateIndex
CREATE INDEX "PassResult_failStep_idx" ON "PassResult"("failStep");

-- CreateIndex
CREATE INDEX "Diagnostic_passResultId_idx" ON "Diagnostic"("passResultId");

-- CreateIndex
CREATE INDEX "Diagnostic_code_idx" ON "Diagnostic"("code");

-- CreateIndex
CREATE INDEX "Diagnostic_category_idx" ON "Diagnostic"("category");

-- CreateIndex
CREATE UNIQUE INDEX "CaseResult_responseId_position_key" ON "CaseResult"("responseId", "position");

-- CreateIndex
CREATE INDEX "JudgeVerdict_stage_judge_idx" ON "JudgeVerdict"("stage", "judge");

-- CreateIndex
CREATE UNIQUE INDEX "JudgeVerdict_responseId_stage_casePosition_judge_key" ON "JudgeVerdict"("responseId", "stage", "casePosition", "judge");

-- CreateIndex
CREATE UNIQUE INDEX "PublishedResult_source_modelName_domain_key" ON "PublishedResult"("source", "modelName", "domain");

