-- CreateTable
CREATE TABLE "DryRunCase" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "responseId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "failedNode" TEXT,
    "reason" TEXT,
    "fileCheck" TEXT NOT NULL,
    "outputs" TEXT NOT NULL DEFAULT '{}',
    "trace" TEXT NOT NULL DEFAULT '[]',
    "model" TEXT NOT NULL,
    "executedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "DryRunCase_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "DryRunCase_responseId_position_key" ON "DryRunCase"("responseId", "position");
