-- AlterTable
ALTER TABLE "Run" ADD COLUMN     "judge" TEXT;

