-- CreateIndex
CREATE INDEX "Response_runId_turnId_id_idx" ON "Response"("runId", "turnId", "id");

-- CreateIndex
CREATE INDEX "Response_turnId_runId_id_idx" ON "Response"("turnId", "runId", "id");

-- CreateIndex
CREATE INDEX "PassResult_responseId_valid_failStep_idx" ON "PassResult"("responseId", "valid", "failStep");

-- CreateIndex
CREATE INDEX "CaseResult_responseId_verdict_idx" ON "CaseResult"("responseId", "verdict");

