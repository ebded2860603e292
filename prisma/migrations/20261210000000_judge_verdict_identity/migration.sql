-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_JudgeVerdict" (
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
    "sampleIndex" INTEGER NOT NULL DEFAULT 0,
    "judgeIdentity" TEXT,
    "wellFormed" BOOLEAN,
    "jobId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "JudgeVerdict_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_JudgeVerdict" ("casePosition", "createdAt", "id", "inputFingerprint", "judge", "latencyMs", "promptFingerprint", "rawOutput", "reason", "responseId", "stage", "tokens", "verdict") SELECT "casePosition", "createdAt", "id", "inputFingerprint", "judge", "latencyMs", "promptFingerprint", "rawOutput", "reason", "responseId", "stage", "tokens", "verdict" FROM "JudgeVerdict";
DROP TABLE "JudgeVerdict";
ALTER TABLE "new_JudgeVerdict" RENAME TO "JudgeVerdict";
CREATE INDEX "JudgeVerdict_stage_judge_idx" ON "JudgeVerdict"("stage", "judge");
CREATE UNIQUE INDEX "JudgeVerdict_responseId_stage_casePosition_judge_sampleIndex_key" ON "JudgeVerdict"("responseId", "stage", "casePosition", "judge", "sampleIndex");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

