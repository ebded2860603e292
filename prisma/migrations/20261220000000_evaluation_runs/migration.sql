-- AlterTable
ALTER TABLE "Response" ADD COLUMN "accepted" BOOLEAN;
ALTER TABLE "Response" ADD COLUMN "generatedAt" DATETIME;
ALTER TABLE "Response" ADD COLUMN "generationMs" INTEGER;

-- AlterTable
ALTER TABLE "CaseResult" ADD COLUMN "difyRunId" TEXT;
ALTER TABLE "CaseResult" ADD COLUMN "elapsedMs" INTEGER;
ALTER TABLE "CaseResult" ADD COLUMN "error" TEXT;
ALTER TABLE "CaseResult" ADD COLUMN "executedAt" DATETIME;
ALTER TABLE "CaseResult" ADD COLUMN "files" TEXT;

-- CreateTable
CREATE TABLE "DifyConnection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "label" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "passwordCipher" TEXT NOT NULL,
    "keepApps" BOOLEAN NOT NULL DEFAULT false,
    "runTimeoutMs" INTEGER NOT NULL DEFAULT 1200000,
    "createdBy" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Evaluation" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "Evaluation_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Evaluation_difyConnectionId_fkey" FOREIGN KEY ("difyConnectionId") REFERENCES "DifyConnection" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "GenerationAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    CONSTRAINT "GenerationAttempt_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Run" (
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
    "status" TEXT NOT NULL DEFAULT 'complete',
    "evaluationId" TEXT,
    "runNumber" INTEGER,
    "generationMode" TEXT,
    CONSTRAINT "Run_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Run_evaluationId_fkey" FOREIGN KEY ("evaluationId") REFERENCES "Evaluation" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Run" ("benchmarkId", "contentHash", "coreVersion", "hasResolve", "id", "importedAt", "importedBy", "label", "modelId", "origin", "responseCount", "scoredAt", "sourceFile") SELECT "benchmarkId", "contentHash", "coreVersion", "hasResolve", "id", "importedAt", "importedBy", "label", "modelId", "origin", "responseCount", "scoredAt", "sourceFile" FROM "Run";
DROP TABLE "Run";
ALTER TABLE "new_Run" RENAME TO "Run";
CREATE INDEX "Run_modelId_idx" ON "Run"("modelId");
CREATE INDEX "Run_evaluationId_idx" ON "Run"("evaluationId");
CREATE UNIQUE INDEX "Run_benchmarkId_contentHash_key" ON "Run"("benchmarkId", "contentHash");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "DifyConnection_label_key" ON "DifyConnection"("label");

-- CreateIndex
CREATE INDEX "Evaluation_benchmarkId_idx" ON "Evaluation"("benchmarkId");

-- CreateIndex
CREATE UNIQUE INDEX "GenerationAttempt_responseId_index_key" ON "GenerationAttempt"("responseId", "index");

