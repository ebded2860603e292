import { describe, expect, it } from "vitest";
import { Document, Scalar } from "yaml";
import { toYaml11, toYaml11ByLibrary, toYaml11Direct } from "./dify-yaml";

// Seeded (mulberry32) so that a failing case reproduces from its index.
function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLAIN_PIECES = ["a", "b", "Z", "word", "x1", "Hello", "é", "日本", "😀", "_", "/", ".", "(", ")", "0", "42", "=", "~"];
const TRICKY_PIECES = [
  " ", "  ", "\t", "\n", "\n\n", "\n ", " \n", "\n\t", "\r", "\r\n", "'", '"', "#", " #", ":", ": ", ":\t", "-", "- ", "?", "? ",
  "|", ">", "{", "}", "[", "]", ",", "&", "*", "!", "%", "@", "`", "---", "...", "\n---", "\n...", "\n%", "--- x", "... x",
  "yes", "No", "on", "OFF", "y", "n", "~", "null", "Null", "NULL", "true", "False", "0x1F", "1_000", "0777", "0b101", "1:20",
  "1:20.5", ".5", "1.", "1e3", "e5", "E10", "-.inf", ".NaN", "+12", "-0", "2001-12-14", "2001-12-14 21:59:43.10 -5",
  "2001-12-14t21:59:43.10-05:00", "=", "<<", "\u0085", "\u2028", "\u2029", "\ufeff", "\u00a0", "😀", "\ud800", "\udfff",
  "\u0000", "\u0007", "\u0008", "\u000b", "\u000c", "\u001b", "\u001f", "\u007f", "\u0090", "\\", "\\n", "x".repeat(45), "long words ".repeat(9),
];
const KEY_WORDS = ["id", "data", "type", "title", "nodes", "edges", "x", "y", "a", "B", "_", "1", "10", "9", ""];

function generatedString(random: () => number, tricky: boolean): string {
  const pieces = Math.floor(random() * 6);
  let text = "";
  for (let index = 0; index < pieces; index += 1) {
    const pool = tricky && random() < 0.5 ? TRICKY_PIECES : PLAIN_PIECES;
    text += pool[Math.floor(random() * pool.length)];
    if (random() < 0.3) text += " ";
  }
  return text;
}

const CHARACTERS = [..." \t\n\r'\"#:-?|>{}[],&*!%@`.~=<+0123456789eExyYnN_\\", "\u0085", "\u2028", "\u2029", "\ufeff", "\u00a0", "\u0000", "\u001b", "\u007f", "😀", "\ud800", "\udc00", "é"];

// Character by character, so that every neighbouring pair of tricky characters turns up somewhere.
function characterString(random: () => number): string {
  const length = random() < 0.2 ? 40 + Math.floor(random() * 60) : Math.floor(random() * 8);
  let text = "";
  for (let index = 0; index < length; index += 1) text += CHARACTERS[Math.floor(random() * CHARACTERS.length)];
  return text;
}

function generatedNumber(random: () => number): number {
  const choice = Math.floor(random() * 7);
  if (choice === 0) return Math.floor(random() * 1000) - 500;
  if (choice === 1) return (random() - 0.5) * 1e6;
  if (choice === 2) return random() * 1e-9;
  if (choice === 3) return Number.MAX_SAFE_INTEGER * random() * 1e10;
  if (choice === 4) return 1.5;
  if (choice === 5) return 1.0;
  return -random();
}

function generatedValue(random: () => number, tricky: boolean, depth: number): unknown {
  const roll = random();
  if (depth < 4 && roll < 0.25) {
    const size = Math.floor(random() * 5);
    const record: Record<string, unknown> = {};
    for (let index = 0; index < size; index += 1) {
      const key = random() < 0.5 ? KEY_WORDS[Math.floor(random() * KEY_WORDS.length)]! : generatedString(random, tricky);
      record[key] = generatedValue(random, tricky, depth + 1);
    }
    return record;
  }
  if (depth < 4 && roll < 0.4) return Array.from({ length: Math.floor(random() * 4) }, () => generatedValue(random, tricky, depth + 1));
  if (roll < 0.75) return generatedString(random, tricky);
  if (roll < 0.88) return generatedNumber(random);
  if (roll < 0.95) return random() < 0.5;
  return null;
}

function generatedDocument(random: () => number, tricky: boolean): unknown {
  const value = generatedValue(random, tricky, 0);
  return typeof value === "string" || random() < 0.7 ? { root: value, [generatedString(random, tricky)]: generatedValue(random, tricky, 1) } : value;
}

describe("the direct YAML emitter against the yaml package", () => {
  it("writes the library's text for thousands of generated values with tricky strings, or declines", () => {
    const random = randomSource(20261127);
    let declined = 0;
    let compared = 0;
    for (let index = 0; index < 6000; index += 1) {
      const value = generatedDocument(random, true);
      const expected = toYaml11ByLibrary(value);
      const actual = toYaml11(value);
      if (actual !== expected) expect({ index, value, actual }).toEqual({ index, value, actual: expected });
      compared += 1;
      if (toYaml11Direct(value) === null) declined += 1;
    }
    expect(compared).toBe(6000);
    // Only strings at the document root and over-long keys are declined; the generator makes few of either.
    expect(declined).toBeLessThan(600);
  });

  it("writes the library's text for strings drawn character by character from a tricky alphabet", () => {
    const random = randomSource(99);
    let direct = 0;
    for (let index = 0; index < 4000; index += 1) {
      const value = { [characterString(random)]: characterString(random), list: [characterString(random), { [characterString(random)]: [characterString(random)] }] };
      const fast = toYaml11Direct(value);
      if (fast !== null) {
        direct += 1;
        if (fast !== toYaml11ByLibrary(value)) expect({ index, value, fast }).toEqual({ index, value, fast: toYaml11ByLibrary(value) });
      }
    }
    expect(direct).toBe(4000);
  });

  it("never declines generated values without exotic characters", () => {
    const random = randomSource(7);
    const values = Array.from({ length: 3000 }, () => generatedDocument(random, false)).filter((value) => typeof value !== "string");
    expect(values.length).toBeGreaterThan(2500);
    for (const value of values) {
      const fast = toYaml11Direct(value);
      expect(fast).not.toBeNull();
      expect(fast).toBe(toYaml11ByLibrary(value));
    }
  });
});


function expectDirectSame(value: unknown): string {
  const direct = toYaml11Direct(value);
  expect(direct).not.toBeNull();
  expect(direct).toBe(toYaml11ByLibrary(value));
  return direct as string;
}

describe("cases read off the yaml package's rules", () => {
  it("knows every resolver of the 1.1 schema (the emitter skips them for strings no resolver can start with)", () => {
    const { tags } = new Document(null, { version: "1.1" }).schema;
    const resolvers = tags.filter((tag) => tag.default === true && tag.tag !== "tag:yaml.org,2002:str" && tag.test).map((tag) => `${tag.tag}${tag.format ? `/${tag.format}` : ""}`);
    expect(resolvers).toEqual([
      "tag:yaml.org,2002:null",
      "tag:yaml.org,2002:bool",
      "tag:yaml.org,2002:bool",
      "tag:yaml.org,2002:int/BIN",
      "tag:yaml.org,2002:int/OCT",
      "tag:yaml.org,2002:int",
      "tag:yaml.org,2002:int/HEX",
      "tag:yaml.org,2002:float",
      "tag:yaml.org,2002:float/EXP",
      "tag:yaml.org,2002:float",
      "tag:yaml.org,2002:int/TIME",
      "tag:yaml.org,2002:float/TIME",
      "tag:yaml.org,2002:timestamp",
    ]);
  });

  it("prints numbers as JSON does, so a Python float 1.0 (a JS 1 in the converted data) is written 1", () => {
    expect(expectDirectSame({ a: 1.0, b: 0.1, c: 1e21, d: 5e-7, e: -12, f: 123456789.125 })).toBe("a: 1\nb: 0.1\nc: 1e+21\nd: 5e-7\ne: -12\nf: 123456789.125\n");
  });

  it("quotes strings a YAML 1.1 loader would read as something else, with the schema's resolvers and PyYAML's", () => {
    const words = ["yes", "No", "on", "OFF", "y", "N", "~", "null", "", "0x1F", "1_000", "0777", "0b11", "1:20", "1:20.5", ".5", "1.", ".", "1e3", "e5", "E10", "-.inf", ".NaN", "2001-12-14", "2001-12-14 21:59:43.10 -5", "=", "<<"];
    const text = expectDirectSame(Object.fromEntries(words.map((word) => [`k${word}`, word])));
    for (const word of words) expect(text).toContain(`k${word}: "${word}"`);
    expect(expectDirectSame({ plain: ["yesno", "nulls", "e", "1x", "-", "- a", "-a", "?b", "a:b", "a #b", "a#b"] })).toBe(
      'plain:\n  - yesno\n  - nulls\n  - e\n  - 1x\n  - "-"\n  - "- a"\n  - -a\n  - ?b\n  - a:b\n  - "a #b"\n  - a#b\n',
    );
  });

  it("single-quotes only a one-line string holding a double quote and no single quote", () => {
    expect(expectDirectSame({ a: '"x', b: "'x", c: `'"x`, d: '"x\n' })).toBe(`a: '"x'\nb: "'x"\nc: "'\\"x"\nd: |\n  "x\n`);
  });

  it("writes multi-line text as a literal block with the library's chomping and indentation indicators", () => {
    expect(expectDirectSame({ a: "x\ny", b: "x\n", c: "x\n\n", d: " x\ny", e: "\n\nx", f: "\n" })).toBe(
      "a: |-\n  x\n  y\nb: |\n  x\nc: |+\n  x\n\nd: |2-\n   x\n  y\ne: |-\n  \n\n  x\nf: |+\n  \n",
    );
  });

  it("double-quotes multi-line text ending in blanks after a newline, folding it from 40 JSON characters on", () => {
    expect(expectDirectSame({ a: "x\n " })).toBe('a: "x\\n "\n');
    expect(expectDirectSame({ list: [`${"word ".repeat(8)}\n\n  next\n `] })).toBe(
      'list:\n  - "word word word word word word word word\\ \n\n\n    \\  next\n\n    \\ "\n',
    );
  });

  it("double-quotes control characters, lone surrogates and YAML 1.1 line breaks with YAML escapes, keys included", () => {
    expect(expectDirectSame({ "a\u2028": "\u0000\u0007\b\t\u000b\f\r\u001b\u001f\u007f\u0085\u00a0\u2029\ud800😀" })).toBe(
      '"a\\L": "\\0\\a\\b\\t\\v\\f\\r\\e\\x1f\u007f\\N\u00a0\\P\\ud800😀"\n',
    );
    expect(expectDirectSame({ "a \nb": 1 })).toBe('"a\\ \\nb": 1\n');
  });

  it("quotes document markers only where the library does: keys of the top-level mapping", () => {
    expect(expectDirectSame({ "---a": { "---b": "...c" }, "...d": ["--- e"] })).toBe('"---a":\n  ---b: ...c\n"...d":\n  - --- e\n');
  });

  it("lays out empty and nested collections, sequences in sequences and mappings in sequences", () => {
    expect(expectDirectSame({ b: [[1, [2]], [], {}, { z: 1, x: [] }], a: {} })).toBe("a: {}\nb:\n  - - 1\n    - - 2\n  - []\n  - {}\n  - x: []\n    z: 1\n");
    expect(expectDirectSame([])).toBe("[]\n");
    expect(expectDirectSame(null)).toBe("null\n");
  });

  it("sorts keys by UTF-16 code units, as the library compares them", () => {
    expect(expectDirectSame({ b: 1, B: 2, "10": 3, "9": 4, é: 5, "😀": 6, "\uffff": 7 })).toBe('"10": 3\n"9": 4\nB: 2\nb: 1\né: 5\n😀: 6\n\uffff: 7\n');
  });
});

function outcome(write: () => string): { text: string } | { error: string } {
  try {
    return { text: write() };
  } catch (error) {
    return { error: String(error) };
  }
}

describe("what the direct emitter leaves to the library", () => {
  const declined: [string, unknown][] = [
    ["a yaml Scalar", { a: new Scalar("x") }],
    ["a yaml Document", new Document({ a: 1 })],
    ["a Map", { a: new Map([["k", 1]]) }],
    ["a Date", { a: new Date(0) }],
    ["undefined", { a: undefined, b: 1 }],
    ["undefined in a list", [undefined]],
    ["a hole in a list", [1, , 2]],
    ["a function", { a: () => 1 }],
    ["NaN", { a: Number.NaN }],
    ["Infinity", [Number.POSITIVE_INFINITY]],
    ["-0", { a: -0 }],
    ["a bigint", { a: 1n }],
    ["an object without a prototype", { a: Object.assign(Object.create(null) as object, { b: 1 }) }],
    ["a class instance", { a: new (class Point { x = 1 })() }],
    ["an object with toJSON", { a: { toJSON: () => "x" } }],
    ["a string at the root", "text"],
    ["a key over 1024 characters", { ["k".repeat(1025)]: 1 }],
  ];

  for (const [label, value] of declined) {
    it(`declines ${label}, and toYaml11 writes what the library writes`, () => {
      expect(toYaml11Direct(value)).toBeNull();
      expect(outcome(() => toYaml11(value))).toEqual(outcome(() => toYaml11ByLibrary(value)));
    });
  }

  it("writes deep nesting directly up to its limit and leaves deeper documents to the library", () => {
    const nest = (depth: number): unknown => {
      let value: unknown = "leaf";
      for (let index = 0; index < depth; index += 1) value = index % 2 ? [value] : { k: value };
      return value;
    };
    expectDirectSame(nest(150));
    expect(toYaml11Direct(nest(250))).toBeNull();
    expect(toYaml11(nest(250))).toBe(toYaml11ByLibrary(nest(250)));
  });
});

describe("hostile sizes", () => {
  // How the time grows with such text is measured by `npm run bench:adversarial` (the response view writes the YAML).
  it("writes megabytes of adversarial text directly, every character kept", () => {
    const size = 1 << 20;
    const values = [": ".repeat(size), " \n".repeat(size), "\n".repeat(size) + " ", "1".repeat(size), `2001-12-14${" ".repeat(size)}x`, "1:1".repeat(size), "a'\"#".repeat(size), "\u2028 \n".repeat(size)];
    for (const text of values) {
      const out = toYaml11Direct({ k: text, [text.slice(0, 100)]: [text] });
      expect(out).not.toBeNull();
      expect(out!.length).toBeGreaterThan(2 * text.length);
    }
    const sample = { k: " \n".repeat(2000) + "x: y\n#".repeat(2000), list: ["\n\n".repeat(3000) + " a"] };
    expectDirectSame(sample);
  });
});
