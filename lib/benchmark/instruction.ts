// What an instruction itself says about a workflow's variables: the names it gives in "(variable X)" or
// "(variables a, b and c)" form, quoted or not. Pure; reads only the instruction text, never the check files.

const NAMED = /\(variables?\s+([^)]*)\)/gi;
const NAME = /^[A-Za-z_][\w-]*$/;

/** The variable names an instruction states, in order of first mention, each once. */
export function namedVariables(instruction: string): string[] {
  const names: string[] = [];
  for (const match of instruction.matchAll(NAMED)) {
    for (const part of (match[1] as string).split(/,|\band\b/)) {
      const name = part.trim().replace(/^['"`‘“]|['"`’”]$/g, "");
      if (NAME.test(name) && !names.includes(name)) names.push(name);
    }
  }
  return names;
}
