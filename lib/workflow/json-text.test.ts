import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isFloatLiteral, mayHoldFloatLiteral, nestsDeeperThan, parsePyJson, positionAt, type JsonProblem } from "./json-text";

function problem(text: string): JsonProblem {
  const result = parsePyJson(text);
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
  return result.problem;
}

function value(text: string): unknown {
  const result = parsePyJson(text);
  if (!result.ok) throw new Error(result.problem.message);
  return result.value;
}

describe("parsePyJson accepts what Python json.loads accepts", () => {
  it("parses NaN, Infinity and -Infinity, which JSON.parse rejects", () => {
    expect(value("[NaN, Infinity, -Infinity]")).toEqual([NaN, Infinity, -Infinity]);
    expect(() => JSON.parse("[NaN]")).toThrow();
  });

  it("keeps the last of duplicate keys and treats __proto__ as data", () => {
    expect(value('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    const parsed = value('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.keys(parsed)).toEqual(["__proto__"]);
  });

  it("accepts any JSON value at the top level and surrounding JSON whitespace", () => {
    expect(value(" \t\r\n[1]\n ")).toEqual([1]);
    expect(value("3")).toBe(3);
    expect(value('"s"')).toBe("s");
  });

  it("decodes escapes including surrogate pairs", () => {
    expect(value('"\\ud83d\\ude00 \\n \\/ \\u00e9"')).toBe("😀 \n / é");
  });

  it("remembers which numbers were float literals with integral values", () => {
    const parsed = parsePyJson('{"a": [1, 1.0, 2e0, 1.5], "b": 3.0, "c": 3}');
    if (!parsed.ok) throw new Error("parse failed");
    const root = parsed.value as { a: number[]; b: number; c: number };
    expect([0, 1, 2, 3].map((i) => isFloatLiteral(parsed.floats, root.a, i))).toEqual([false, true, true, true]);
    expect(isFloatLiteral(parsed.floats, root, "b")).toBe(true);
    expect(isFloatLiteral(parsed.floats, root, "c")).toBe(false);
  });

  it("finds float literals after blanks, and none inside strings", () => {
    const spaced = parsePyJson('{"a":\n\t -2.0E1, "b": [ \r\n1e0]}');
    if (!spaced.ok) throw new Error("parse failed");
    const root = spaced.value as { a: number; b: number[] };
    expect([isFloatLiteral(spaced.floats, root, "a"), isFloatLiteral(spaced.floats, root.b, 0)]).toEqual([true, true]);
    const quoted = parsePyJson('{"a": "x: 1.0, [2e3", "b": 1}');
    expect(quoted.ok && quoted.floats).toBe(null);
  });

  it("agrees with JSON.parse on every JSON document (property)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (json) => {
        const text = JSON.stringify(json);
        const parsed = parsePyJson(text);
        expect(parsed.ok).toBe(true);
        if (parsed.ok) expect(parsed.value).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it("accepts and rejects exactly what JSON.parse does on arbitrary text without NaN/Infinity (property)", () => {
    const jsonish = fc.string({ unit: fc.constantFrom(..."{}[]\",:0123456789.-+eE tfnrulase\\/'\n\t\u0001") });
    fc.assert(
      fc.property(jsonish, (text) => {
        let jsOk = true;
        try {
          JSON.parse(text);
        } catch {
          jsOk = false;
        }
        expect(parsePyJson(text).ok).toBe(jsOk);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("mayHoldFloatLiteral", () => {
  /** The scan it replaced: from each separator on, whitespace and digit runs taken whole. */
  const FROM_SEPARATOR = /[:[,](?=(\s*))\1-?(?=(\d+))\2[.eE]/;

  it("finds a float literal where the scan from each separator did (property)", () => {
    const text = fc.string({ unit: fc.constantFrom(..."::[[,, \t\n\r--0123456789..eEa\"x") });
    let found = 0;
    fc.assert(
      fc.property(text, (sample) => {
        expect(mayHoldFloatLiteral(sample)).toBe(FROM_SEPARATOR.test(sample));
        if (FROM_SEPARATOR.test(sample)) found += 1;
      }),
      { numRuns: 3000 },
    );
    expect(found).toBeGreaterThan(100);
  });

  it("tells float literals after blanks from numbers that only look like them", () => {
    expect(mayHoldFloatLiteral('{"a": \n\t -12.5}')).toBe(true);
    expect(mayHoldFloatLiteral("[1E3]")).toBe(true);
    expect(mayHoldFloatLiteral('{"v": "1.0", "n": 10}')).toBe(false);
    expect(mayHoldFloatLiteral('{"a": x1.0, "b": -.5, "c": 1-2.0}')).toBe(false);
  });
});

describe("parsePyJson's own parser reads strings", () => {
  // A float literal first keeps the text off the native path: the string is read by the parser itself.
  const pieces = fc.constantFrom("a", "é", "😀", " ", ":", "[", "{", "\\n", '\\"', "\\\\", "\\u00e9", "\\ud83d", "\u0001", "\n", "\u007f", '"');

  it("as JSON.parse does, and places a raw control character where it stands (property)", () => {
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 40 }), (parts) => {
        const text = `[1.0, "${parts.join("")}"]`;
        let expected: unknown;
        try {
          expected = JSON.parse(text);
        } catch {
          expected = undefined;
        }
        const parsed = parsePyJson(text);
        expect(parsed.ok).toBe(expected !== undefined);
        if (parsed.ok) expect(parsed.value).toEqual(expected);
        const control = /[\u0000-\u001f]/.exec(text.slice(7));
        const quote = text.indexOf('"', 7);
        if (!parsed.ok && control && (quote === text.length - 2 || 7 + control.index < quote)) {
          expect(parsed.problem).toMatchObject({ code: "json-control-character", offset: 7 + control.index });
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("reports a string never closed, long or short, from its opening quote", () => {
    for (const body of ["", "abc", "é".repeat(10_000), 'x\\"y']) {
      expect(problem(`[1.0, "${body}`)).toMatchObject({ code: "json-unterminated-string", offset: 6, length: body.length + 1 });
    }
  });
});

describe("parsePyJson explains what Python rejects, with positions", () => {
  it("names comments", () => {
    expect(problem('{"a": 1 /* note */}')).toMatchObject({ code: "json-comment", line: 1, column: 9, offset: 8 });
    expect(problem('{"a": 1, // note\n"b": 2}').code).toBe("json-comment");
  });

  it("names trailing commas and points at the comma", () => {
    const p = problem('{"a": [1, 2,\n]}');
    expect(p).toMatchObject({ code: "json-trailing-comma", line: 1, column: 12 });
    expect(p.related).toMatchObject({ line: 2, column: 1 });
    expect(problem('{"a": 1,}').code).toBe("json-trailing-comma");
  });

  it("names a mismatched bracket and where the open one was", () => {
    const p = problem('{\n  "edges": [["1", 0, "2"}\n}');
    expect(p.code).toBe("json-mismatched-bracket");
    expect(p.message).toContain("`}`");
    expect(p.message).toContain("`]`");
    expect(p.related).toMatchObject({ line: 2, column: 13 });
    expect(problem('[["a", 1)]').message).toMatch(/found `\)` where `\]` was expected/);
  });

  it("names an unclosed bracket at its opening position", () => {
    const p = problem('{"nodes_info": [1, 2');
    expect(p).toMatchObject({ code: "json-unclosed-bracket", line: 1, column: 16, offset: 15 });
  });

  it("names code-fence leftovers from the official fence-stripping quirk", () => {
    expect(problem(' json\n{"a": 1}').code).toBe("json-code-fence");
    expect(problem('JSON\n{"a": 1}').code).toBe("json-code-fence");
    expect(problem('{"a": 1}\n ```').code).toBe("json-code-fence");
  });

  it("names single quotes, bad escapes, raw control characters and missing commas", () => {
    expect(problem("{'a': 1}").code).toBe("json-single-quote");
    expect(problem('{"a": \'x\'}').code).toBe("json-single-quote");
    expect(problem('"a\\sb"')).toMatchObject({ code: "json-bad-escape", offset: 2 });
    expect(problem('"\\u12G4"').code).toBe("json-bad-escape");
    expect(problem('"line\nbreak"')).toMatchObject({ code: "json-control-character", line: 1, column: 6 });
    expect(problem('["a" "b"]').code).toBe("json-missing-comma");
  });

  it("names empty input, extra data and Python literals", () => {
    expect(problem("  ").code).toBe("empty-workflow");
    expect(problem('{"a": 1} {"b": 2}').code).toBe("json-extra-data");
    expect(problem('{"a": 1}}').message).toMatch(/Extra `}`/);
    expect(problem('{"a": True}').message).toMatch(/write `true`/);
    expect(problem('"unterminated').code).toBe("json-unterminated-string");
  });

  it("rejects numbers Python rejects", () => {
    for (const text of ["01", "+1", ".5", "1.", "-", "-NaN", "0x10"]) expect(parsePyJson(text).ok, text).toBe(false);
  });

  it("reports a too-deep nesting instead of overflowing the stack", () => {
    expect(problem("[".repeat(5000) + "]".repeat(5000)).code).toBe("json-too-deep");
  });

  it("accepts 990 nesting levels and refuses 991 (the limit is exact on the native fast path too)", () => {
    expect(parsePyJson("[".repeat(990) + "]".repeat(990)).ok).toBe(true);
    expect(problem("[".repeat(991) + "]".repeat(991)).code).toBe("json-too-deep");
  });
});

describe("nestsDeeperThan", () => {
  /** The depth walk alone, without the opener count that usually decides first. */
  function deeperByWalk(text: string, limit: number): boolean {
    let depth = 0;
    for (const c of text) {
      if (c === "{" || c === "[") {
        if (++depth > limit) return true;
      } else if ((c === "}" || c === "]") && depth > 0) depth--;
    }
    return false;
  }

  it("agrees with a plain depth walk on arbitrary bracket text and limits (property)", () => {
    const brackets = fc.string({ unit: fc.constantFrom(..."{}[]a\"") });
    fc.assert(
      fc.property(brackets, fc.nat(12), (text, limit) => {
        expect(nestsDeeperThan(text, limit)).toBe(deeperByWalk(text, limit));
      }),
      { numRuns: 3000 },
    );
  });

  it("decides at the limit's edge with either opener and with many shallow ones", () => {
    expect(nestsDeeperThan(`${"{".repeat(3)}${"[".repeat(3)}`, 5)).toBe(true);
    expect(nestsDeeperThan(`${"{".repeat(3)}${"[".repeat(2)}`, 5)).toBe(false);
    expect(nestsDeeperThan("[]{}".repeat(1000), 5)).toBe(false);
  });
});

describe("positionAt", () => {
  it("gives 1-based lines and columns", () => {
    expect(positionAt("ab\ncd", 4)).toEqual({ offset: 4, line: 2, column: 2 });
    expect(positionAt("ab", 0)).toEqual({ offset: 0, line: 1, column: 1 });
  });
});
