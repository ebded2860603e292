-- Session revocation: sessions carry the version they were issued under; sign-out, password and role changes bump it.
ALTER TABLE "User" ADD COLUMN "sessionVersion" INTEGER NOT NULL DEFAULT 0;
