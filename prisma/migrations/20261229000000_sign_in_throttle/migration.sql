-- CreateTable
CREATE TABLE "SignInThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "windowStart" DATETIME NOT NULL,
    "lastAttemptAt" DATETIME,
    "checkingUntil" DATETIME
);

-- CreateIndex
CREATE INDEX "SignInThrottle_windowStart_idx" ON "SignInThrottle"("windowStart");

