import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import { evalPythonLiteral, literalToString } from "./python-literal";
import {
  isJsonObject,
  ownValue,
  pyContains,
  pyEq,
  pyFloatRepr,
  pyHashKey,
  pyItem,
  pyIter,
  pyLen,
  pyLess,
  pyParseInt,
  pyRepr,
  pySortBy,
  pyStrip,
  pyStripChars,
  type JsonValue,
} from "./python-values";

describe("Python string semantics", () => {
  it("strip() uses Python's whitespace set", () => {
    expect(pyStrip("\u001c\u001d\u001e\u001f\u0085 x \u00a0\u2028")).toBe("x");
    expect(pyStrip("\ufeffx")).toBe("\ufeffx");
    expect(pyStrip("\u200bx")).toBe("\u200bx");
  });

  it("strip(chars) removes a character set, not a prefix", () => {
    expect(pyStripChars("```json\n{}\n```", "\n`json")).toBe("{}");
    expect(pyStripChars("array[string]", "ary[")).toBe("string]");
    expect(pyStripChars("nosj{}", "json")).toBe("{}");
  });

  it("int() accepts signs, whitespace, underscores and Unicode digits", () => {
    expect(pyParseInt(" 3 ")).toBe(3);
    expect(pyParseInt("+1_0")).toBe(10);
    expect(pyParseInt("٣")).toBe(3);
    expect(pyParseInt("𝟗")).toBe(9);
    for (const bad of ["", "1.0", "1__0", "_1", "x", "0x1"]) expect(pyParseInt(bad), bad).toBeUndefined();
  });

  it("repr() of floats follows Python", () => {
    expect(pyFloatRepr(1)).toBe("1.0");
    expect(pyFloatRepr(0.1)).toBe("0.1");
    expect(pyFloatRepr(1e16)).toBe("1e+16");
    expect(pyFloatRepr(1.5e-5)).toBe("1.5e-05");
    expect(pyFloatRepr(123456.789)).toBe("123456.789");
    expect(pyFloatRepr(-0)).toBe("-0.0");
    expect(pyFloatRepr(Infinity)).toBe("inf");
    expect(pyRepr(["a", 1, null, true, { "k'": "v" }])).toBe(`['a', 1, None, True, {"k'": 'v'}]`);
  });
});

describe("Python container semantics", () => {
  it("indexes lists, strings (by code point) and fails on dicts and scalars", () => {
    expect(pyItem([1, 2, 3], -1)).toBe(3);
    expect(pyItem("a😀b", 1)).toBe("😀");
    expect(pyItem({ "0": 1 }, 0)).toBeUndefined();
    expect(pyItem(5, 0)).toBeUndefined();
    expect(pyLen("😀")).toBe(1);
    expect(pyLen(null)).toBeUndefined();
  });

  it("iterates dict keys and string characters", () => {
    expect(pyIter({ a: 1, b: 2 })).toEqual(["a", "b"]);
    expect(pyIter("ab")).toEqual(["a", "b"]);
    expect(pyIter(3)).toBeUndefined();
  });

  it("`in` works on strings, lists and dict keys, and raises on numbers", () => {
    expect(pyContains("a-b", "-")).toBe(true);
    expect(pyContains(["-"], "-")).toBe(true);
    expect(pyContains({ "-": 1 }, "-")).toBe(true);
    expect(pyContains(5, "-")).toBeUndefined();
    expect(pyContains(null, ".")).toBeUndefined();
  });

  it("compares like Python: True == 1 == 1.0, None and dicts are unordered", () => {
    expect(pyEq(true, 1)).toBe(true);
    expect(pyEq([1, "a"], [1, "a"])).toBe(true);
    expect(pyHashKey(true)).toBe(pyHashKey(1));
    expect(pyHashKey([1])).toBeUndefined();
    expect(pyLess(1, true)).toBe(false);
    expect(pyLess("b", "a")).toBe(false);
    expect(pyLess(null, null)).toBeUndefined();
    expect(pyLess(0, "0")).toBeUndefined();
    expect(pyLess([1, "a"], [1, "b"])).toBe(true);
    expect(pyLess([1, "a"], [1, 2])).toBeUndefined();
  });

  it("sorts stably and reports when Python's sort would raise", () => {
    expect(pySortBy([3, 1, 2], (x) => x)).toEqual({ sorted: [1, 2, 3], raises: false });
    expect(pySortBy([{ k: 1, v: "a" }, { k: 0, v: "b" }, { k: 1, v: "c" }], (x) => x.k).sorted.map((x) => x.v)).toEqual(["b", "a", "c"]);
    expect(pySortBy([0, "1"], (x) => x).raises).toBe(true);
    expect(pySortBy([null], (x) => x).raises).toBe(false);
  });
});

describe("eval() of inline-reference id tokens", () => {
  const read = (token: string): string | null => {
    const literal = evalPythonLiteral(token);
    return literal ? literalToString(literal) : null;
  };

  it("evaluates integer and string literals", () => {
    expect(read("3")).toBe("3");
    expect(read("'3'")).toBe("3");
    expect(read('"12"')).toBe("12");
    expect(read("1_0")).toBe("10");
    expect(read("0x10")).toBe("16");
    expect(read("'1' '2'")).toBe("12");
    expect(read("(4)")).toBe("4");
    expect(read("1+1")).toBe("2");
    expect(read("'\\x33'")).toBe("3");
    expect(read("r'3'")).toBe("3");
    expect(read("True")).toBe("True");
  });

  it("rejects names, leading zeros and unterminated strings", () => {
    for (const token of ["item", "sys", "self", "math", "01", "'3", "3 4", "f'{x}'", ""]) expect(read(token), token).toBeNull();
  });
});

describe("ownValue and isJsonObject", () => {
  it("read own keys only, as Object.prototype.hasOwnProperty decides, prototype keys and __proto__ included", () => {
    const parsed = JSON.parse('{"constructor": 1, "__proto__": {"x": 2}, "text": "t", "none": null}') as Record<string, never>;
    const inherits = Object.create({ inherited: "no" }) as Record<string, never>;
    const keys = ["constructor", "__proto__", "text", "none", "toString", "x", "inherited", "missing"];
    let own = 0;
    for (const object of [parsed, inherits, {}]) {
      for (const key of keys) {
        const expected = Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
        if (expected !== undefined) own += 1;
        expect(ownValue(object, key), key).toBe(expected);
      }
    }
    expect(own).toBe(4);
    expect([{}, [], null, "s", 1, parsed].map(isJsonObject)).toEqual([true, false, false, false, false, true]);
  });
});

// The binary-insertion replay pySortBy used for every length, kept as the reference for lists under 64 items.
function splicingSortBy<T>(items: readonly T[], key: (item: T) => JsonValue): { sorted: T[]; raises: boolean } {
  const out = items.slice();
  for (let i = 1; i < out.length; i++) {
    const pivot = out[i] as T;
    const pivotKey = key(pivot);
    let lo = 0;
    let hi = i;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const less = pyLess(pivotKey, key(out[mid] as T));
      if (less === undefined) return { sorted: out, raises: true };
      if (less) hi = mid;
      else lo = mid + 1;
    }
    out.splice(i, 1);
    out.splice(lo, 0, pivot);
  }
  return { sorted: out, raises: false };
}

/** Items tagged with their input position, so that stability shows in the result. */
const tagged = (keys: readonly JsonValue[]) => keys.map((key, at) => ({ key, at }));
const byKey = (item: { key: JsonValue }): JsonValue => item.key;

function stableSortedPositions(keys: readonly JsonValue[]): number[] {
  const order = (a: { key: JsonValue }, b: { key: JsonValue }) => (pyLess(a.key, b.key) ? -1 : pyLess(b.key, a.key) ? 1 : 0);
  return tagged(keys)
    .sort(order)
    .map((item) => item.at);
}

const scalarKey = fc.oneof(fc.integer({ min: -5, max: 5 }), fc.double(), fc.string({ unit: "grapheme", maxLength: 3 }), fc.boolean(), fc.constant(null));
const mixedKey: fc.Arbitrary<JsonValue> = fc.letrec<{ key: JsonValue }>((tie) => ({
  key: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalarKey, fc.array(tie("key"), { maxLength: 3 })),
})).key;
// Keys of one comparable kind: numbers and booleans, strings (astral characters included), or lists of integers.
const comparableKeys = (minLength: number, maxLength: number): fc.Arbitrary<JsonValue[]> =>
  fc.oneof(
    fc.array(fc.oneof(fc.integer({ min: -20, max: 20 }), fc.boolean(), fc.double({ noNaN: true })), { minLength, maxLength }),
    fc.array(fc.string({ unit: "binary", maxLength: 3 }), { minLength, maxLength }),
    fc.array(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 3 }), { minLength, maxLength }),
  );

describe("pySortBy at every size", () => {
  it("agrees with CPython's binary insertion below 64 items: same order, same TypeError, same order left on a TypeError", () => {
    const keyLists = fc.oneof(fc.array(mixedKey, { maxLength: 63 }), comparableKeys(0, 63));
    fc.assert(
      fc.property(keyLists, (keys) => {
        expect(pySortBy(tagged(keys), byKey)).toEqual(splicingSortBy(tagged(keys), byKey));
      }),
      { numRuns: 500 },
    );
  });

  it("sorts 64 items and more stably when the keys can be compared", () => {
    fc.assert(
      fc.property(comparableKeys(64, 300), (keys) => {
        const { sorted, raises } = pySortBy(tagged(keys), byKey);
        expect(raises).toBe(false);
        expect(sorted.map((item) => item.at)).toEqual(stableSortedPositions(keys));
      }),
      { numRuns: 200 },
    );
  });

  it("raises at 64 items and more when names and numbers are mixed, or a key is None", () => {
    const mixed = fc
      .tuple(fc.array(fc.oneof(fc.integer(), fc.string()), { minLength: 62, maxLength: 300 }), fc.string(), fc.integer())
      .chain(([rest, name, number]) => fc.shuffledSubarray([...rest, name, number], { minLength: rest.length + 2 }));
    const withNone = fc.array(fc.integer(), { minLength: 63, maxLength: 300 }).chain((rest) => fc.shuffledSubarray([...rest, null], { minLength: rest.length + 1 }));
    fc.assert(
      fc.property(fc.oneof(mixed, withNone), (keys) => {
        expect(keys.length).toBeGreaterThanOrEqual(64);
        expect(pySortBy(keys, (key) => key).raises).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it("sorts 40,000 end nodes with at most n·⌈log2 n⌉ comparisons and no per-item splice", () => {
    const n = 40_000;
    let keyReads = 0;
    // Each key is a one-item list behind a proxy: every comparison of two keys reads item 0 of both.
    const counted = (name: string): JsonValue =>
      new Proxy([name], {
        get(target, property, receiver) {
          if (property === "0") keyReads++;
          return Reflect.get(target, property, receiver) as unknown;
        },
      });
    const names = Array.from({ length: n }, (_, i) => `output_${(i * 7919) % n}`);
    const splice = vi.spyOn(Array.prototype, "splice");
    try {
      const { sorted, raises } = pySortBy(names, counted);
      expect(raises).toBe(false);
      expect(sorted).toEqual(names.slice().sort());
      expect(splice).not.toHaveBeenCalled();
    } finally {
      splice.mockRestore();
    }
    const comparisons = keyReads / 2;
    expect(comparisons).toBeGreaterThan(n);
    expect(comparisons).toBeLessThanOrEqual(n * Math.ceil(Math.log2(n)));
  });
});
