// Reading URL search parameters the same way everywhere: Next's page `searchParams` (a value may be missing, one
// string or repeated) or a URLSearchParams. The first value counts; nothing here throws.

/** Search parameters as Next passes them to pages, or a URLSearchParams. */
export type SearchParamsInput = Readonly<Record<string, string | string[] | undefined>> | URLSearchParams;

/** The first value of `name`, as written; undefined when it is absent. */
export function firstParam(input: SearchParamsInput, name: string): string | undefined {
  if (input instanceof URLSearchParams) return input.get(name) ?? undefined;
  const value = input[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The first value of `name` without surrounding blanks; null when it is absent or blank. */
export function trimmedParam(input: SearchParamsInput, name: string): string | null {
  const trimmed = firstParam(input, name)?.trim();
  return trimmed ? trimmed : null;
}
