// Result values for expected failures: callers branch on `ok` instead of catching exceptions.
// Every pure core function that can fail on user data returns one of these.

export type Ok<T> = { ok: true; value: T };
export type Err<E> = { ok: false; issues: E[] };
export type Result<T, E> = Ok<T> | Err<E>;

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

export function err<E>(...issues: E[]): Err<E> {
  return { ok: false, issues };
}
