-- CreateTable
CREATE TABLE "GradingResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "responseId" TEXT NOT NULL,
    "runId" TEXT NOT NULL,
    "rubricId" TEXT NOT NULL,
    "rubricVersion" INTEGER NOT NULL,
    "rubricFingerprint" TEXT NOT NULL,
    "passed" BOOLEAN NOT NULL,
    "grade" TEXT NOT NULL,
    "bandGrade" TEXT NOT NULL,
    "weighted" REAL NOT NULL,
    "passThreshold" REAL NOT NULL,
    "gateFailures" TEXT NOT NULL,
    "floorFailures" TEXT NOT NULL,
    "gates" TEXT NOT NULL,
    "criteria" TEXT NOT NULL,
    "reasons" TEXT NOT NULL,
    "explanation" TEXT NOT NULL,
    "judges" TEXT NOT NULL DEFAULT '[]',
    "gradedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "GradingResult_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "GradingResult_runId_rubricId_rubricVersion_idx" ON "GradingResult"("runId", "rubricId", "rubricVersion");

-- CreateIndex
CREATE UNIQUE INDEX "GradingResult_responseId_rubricId_rubricVersion_key" ON "GradingResult"("responseId", "rubricId", "rubricVersion");

