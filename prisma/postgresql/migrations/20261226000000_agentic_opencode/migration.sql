-- AlterTable
ALTER TABLE "GenerationAttempt" ADD COLUMN     "agentRun" TEXT;

-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "agentVersion" TEXT;

