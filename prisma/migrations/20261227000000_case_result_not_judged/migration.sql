-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_CaseResult" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "responseId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "verdict" BOOLEAN,
    "outputs" TEXT,
    "fileCheck" TEXT,
    "files" TEXT,
    "error" TEXT,
    "difyRunId" TEXT,
    "elapsedMs" INTEGER,
    "executedAt" DATETIME,
    CONSTRAINT "CaseResult_responseId_fkey" FOREIGN KEY ("responseId") REFERENCES "Response" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_CaseResult" ("difyRunId", "elapsedMs", "error", "executedAt", "fileCheck", "files", "id", "outputs", "position", "responseId", "verdict") SELECT "difyRunId", "elapsedMs", "error", "executedAt", "fileCheck", "files", "id", "outputs", "position", "responseId", "verdict" FROM "CaseResult";
DROP TABLE "CaseResult";
ALTER TABLE "new_CaseResult" RENAME TO "CaseResult";
CREATE INDEX "CaseResult_responseId_verdict_idx" ON "CaseResult"("responseId", "verdict");
CREATE UNIQUE INDEX "CaseResult_responseId_position_key" ON "CaseResult"("responseId", "position");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Cases executed here whose text outputs no LLM judge answered were stored as resolved (or, when the judge gave no
-- verdict, as failed): they are not judged.
UPDATE "CaseResult" SET "verdict" = NULL
WHERE "executedAt" IS NOT NULL AND "outputs" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "JudgeVerdict" j WHERE j."responseId" = "CaseResult"."responseId" AND j."stage" = 'resolve' AND j."casePosition" = "CaseResult"."position");
UPDATE "CaseResult" SET "verdict" = NULL WHERE "executedAt" IS NOT NULL AND "error" LIKE 'The judge gave no verdict%';
