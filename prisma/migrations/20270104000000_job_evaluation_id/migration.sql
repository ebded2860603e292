-- AlterTable
ALTER TABLE "Job" ADD COLUMN "evaluationId" TEXT;

-- Backfill: jobs an evaluation queued named it in their JSON params.
UPDATE "Job" SET "evaluationId" = json_extract("params", '$.evaluationId')
WHERE json_valid("params") AND json_type("params", '$.evaluationId') = 'text';

-- CreateIndex
CREATE INDEX "Job_evaluationId_idx" ON "Job"("evaluationId");
