-- CreateTable
CREATE TABLE "PairwiseComparison" (
    "id" TEXT NOT NULL,
    "candidateRunId" TEXT NOT NULL,
    "baselineRunId" TEXT NOT NULL,
    "judges" TEXT NOT NULL,
    "samples" INTEGER NOT NULL DEFAULT 1,
    "policy" TEXT NOT NULL DEFAULT 'tie',
    "orderSeed" INTEGER NOT NULL,
    "lengthThreshold" DOUBLE PRECISION NOT NULL DEFAULT 0.7,
    "jobIds" TEXT NOT NULL DEFAULT '[]',
    "createdBy" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PairwiseComparison_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PairwiseItem" (
    "id" TEXT NOT NULL,
    "comparisonId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "turnKey" TEXT NOT NULL,
    "judge" TEXT NOT NULL,
    "sampleIndex" INTEGER NOT NULL,
    "firstShown" TEXT NOT NULL,
    "candidateAnswer" TEXT NOT NULL,
    "baselineAnswer" TEXT NOT NULL,
    "verdicts" TEXT NOT NULL DEFAULT '[]',
    "outcome" TEXT,
    "consistent" BOOLEAN,
    "reran" BOOLEAN NOT NULL DEFAULT false,
    "longer" TEXT NOT NULL,
    "error" TEXT,
    "judgedAt" TIMESTAMP(3),

    CONSTRAINT "PairwiseItem_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PairwiseComparison_candidateRunId_idx" ON "PairwiseComparison"("candidateRunId");

-- CreateIndex
CREATE INDEX "PairwiseComparison_baselineRunId_idx" ON "PairwiseComparison"("baselineRunId");

-- CreateIndex
CREATE UNIQUE INDEX "PairwiseItem_comparisonId_key_key" ON "PairwiseItem"("comparisonId", "key");

-- AddForeignKey
ALTER TABLE "PairwiseComparison" ADD CONSTRAINT "PairwiseComparison_candidateRunId_fkey" FOREIGN KEY ("candidateRunId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PairwiseComparison" ADD CONSTRAINT "PairwiseComparison_baselineRunId_fkey" FOREIGN KEY ("baselineRunId") REFERENCES "Run"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PairwiseItem" ADD CONSTRAINT "PairwiseItem_comparisonId_fkey" FOREIGN KEY ("comparisonId") REFERENCES "PairwiseComparison"("id") ON DELETE CASCADE ON UPDATE CASCADE;

