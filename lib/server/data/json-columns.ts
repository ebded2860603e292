// The JSON text columns the data functions read (a turn's variables and key nodes, test inputs, file checks), parsed
// with a schema; a malformed stored value falls back to an empty one so one bad row never breaks a page.
import { z } from "zod";

const stringList = z.array(z.string());
const outputVarsSchema = z.union([z.array(z.string()), z.array(z.array(z.string()))]);

/** A JSON column's value, unchecked; null when the column is null or not JSON. */
export function parseJsonText(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A JSON column read with its schema, or `fallback` when it is null, not JSON, or not of that shape. */
export function parseColumn<T>(text: string | null, schema: z.ZodType<T>, fallback: T): T {
  if (text === null) return fallback;
  const parsed = schema.safeParse(parseJsonText(text));
  return parsed.success ? parsed.data : fallback;
}

export interface TurnVariables {
  inputVars: string[];
  outputVars: string[] | string[][];
  keyNodes: string[];
}

/** A stored turn's input variables, output variables (flat or per branch) and key nodes. */
export function readTurnVariables(turn: { inputVars: string; outputVars: string; keyNodes: string }): TurnVariables {
  return {
    inputVars: parseColumn(turn.inputVars, stringList, []),
    outputVars: parseColumn<string[] | string[][]>(turn.outputVars, outputVarsSchema, []),
    keyNodes: parseColumn(turn.keyNodes, stringList, []),
  };
}
