-- AlterTable
ALTER TABLE "CaseResult" ALTER COLUMN "verdict" DROP NOT NULL;


-- Cases executed here whose text outputs no LLM judge answered were stored as resolved (or, when the judge gave no
-- verdict, as failed): they are not judged.
UPDATE "CaseResult" SET "verdict" = NULL
WHERE "executedAt" IS NOT NULL AND "outputs" IS NOT NULL
  AND NOT EXISTS (SELECT 1 FROM "JudgeVerdict" j WHERE j."responseId" = "CaseResult"."responseId" AND j."stage" = 'resolve' AND j."casePosition" = "CaseResult"."position");
UPDATE "CaseResult" SET "verdict" = NULL WHERE "executedAt" IS NOT NULL AND "error" LIKE 'The judge gave no verdict%';
