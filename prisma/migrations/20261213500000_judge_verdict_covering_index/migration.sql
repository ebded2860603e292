-- CreateIndex
CREATE INDEX "JudgeVerdict_responseId_stage_casePosition_judge_verdict_idx" ON "JudgeVerdict"("responseId", "stage", "casePosition", "judge", "verdict");

