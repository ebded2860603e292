-- AlterTable
ALTER TABLE "Job" ADD COLUMN     "evaluationId" TEXT;

-- Backfill: jobs an evaluation queued named it in their JSON params (a row whose params are not JSON keeps none).
DO $$
DECLARE
  job RECORD;
BEGIN
  FOR job IN SELECT "id", "params" FROM "Job" WHERE "kind" IN ('generate', 'judge', 'resolve') LOOP
    BEGIN
      UPDATE "Job" SET "evaluationId" = job."params"::jsonb ->> 'evaluationId'
      WHERE "id" = job."id" AND jsonb_typeof(job."params"::jsonb -> 'evaluationId') = 'string';
    EXCEPTION WHEN invalid_text_representation THEN NULL;
    END;
  END LOOP;
END $$;

-- CreateIndex
CREATE INDEX "Job_evaluationId_idx" ON "Job"("evaluationId");
