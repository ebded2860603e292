-- AlterTable
ALTER TABLE "User" ADD COLUMN "disabledAt" DATETIME;

