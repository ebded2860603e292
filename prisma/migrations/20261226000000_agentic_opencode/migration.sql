-- AlterTable
ALTER TABLE "Run" ADD COLUMN "agentVersion" TEXT;

-- AlterTable
ALTER TABLE "GenerationAttempt" ADD COLUMN "agentRun" TEXT;

