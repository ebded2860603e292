import "server-only";
// Password hashing with bcrypt (bcryptjs: maintained, no native build). Cost 11 keeps sign-in under ~150 ms here.
import bcrypt from "bcryptjs";

const BCRYPT_COST = 11;
export const MIN_PASSWORD_LENGTH = 8;

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

export function verifyPassword(password: string, hash: string): Promise<boolean> {
  return bcrypt.compare(password, hash);
}
