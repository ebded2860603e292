-- CreateTable
CREATE TABLE "ReviewQueue" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReviewQueue_benchmarkId_fkey" FOREIGN KEY ("benchmarkId") REFERENCES "Benchmark" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewQueue_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewItem" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "lockedUntil" DATETIME,
    CONSTRAINT "ReviewItem_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "ReviewQueue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewItem_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewItem_judgeVerdictId_fkey" FOREIGN KEY ("judgeVerdictId") REFERENCES "JudgeVerdict" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "ReviewItem_lockedById_fkey" FOREIGN KEY ("lockedById") REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewAssignment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "queueId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "assignedById" TEXT,
    "assignedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ReviewAssignment_queueId_fkey" FOREIGN KEY ("queueId") REFERENCES "ReviewQueue" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewAssignment_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewVote" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "itemId" TEXT NOT NULL,
    "annotatorId" TEXT NOT NULL,
    "annotatorPass" BOOLEAN NOT NULL,
    "verdict" TEXT NOT NULL,
    "followedRules" TEXT,
    "comment" TEXT,
    "judgeVisible" BOOLEAN NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ReviewVote_itemId_fkey" FOREIGN KEY ("itemId") REFERENCES "ReviewItem" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewVote_annotatorId_fkey" FOREIGN KEY ("annotatorId") REFERENCES "User" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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

