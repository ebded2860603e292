// The template errors Jinja2 raises before rendering, whatever the inputs: its lexer's (a character no token starts
// with, an unbalanced bracket, a tag or comment never closed: jinja2/lexer.py tokeniter), a filter Jinja2 does not
// have (compile time since Jinja2 3.0: "No filter named ..."), and block tags that do not nest. Dify renders the
// template with a plain jinja2.Template, so only Jinja2's built-in filters exist. Anything this scan does not know
// is left to the renderer, whose failures are not predictions.
//
// Public API: jinjaSyntaxError(template) -> string | null

/** Jinja2 3.1's built-in filters (jinja2/filters.py FILTERS). */
const BUILTIN_FILTERS = new Set([
  "abs", "attr", "batch", "capitalize", "center", "count", "d", "default", "dictsort", "e", "escape", "filesizeformat",
  "first", "float", "forceescape", "format", "groupby", "indent", "int", "items", "join", "last", "length", "list",
  "lower", "map", "max", "min", "pprint", "random", "reject", "rejectattr", "replace", "reverse", "round", "safe",
  "select", "selectattr", "slice", "sort", "string", "striptags", "sum", "title", "tojson", "trim", "truncate",
  "unique", "upper", "urlencode", "urlize", "wordcount", "wordwrap", "xmlattr",
]);

/** Block tags and the tags that close them (jinja2/parser.py); `set` is one only without `=`. */
const BLOCK_TAGS = new Set(["for", "if", "macro", "call", "filter", "block", "with", "autoescape", "set"]);
/** Every tag a plain jinja2.Environment parses (jinja2/parser.py _statement_keywords, no extensions). */
const KNOWN_TAGS = new Set(["for", "if", "block", "extends", "print", "macro", "include", "from", "import", "set", "with", "autoescape", "filter", "call", "else", "elif"]);

const OPERATORS = ["//", "**", "==", "!=", ">=", "<=", "+", "-", "/", "*", "%", "~", "[", "]", "(", ")", "{", "}", ">", "<", "=", ".", ":", "|", ",", ";"];
const CLOSING: Record<string, string> = { ")": "(", "]": "[", "}": "{" };
const NAME_START = /[\p{L}_]/u;
const NAME_PART = /[\p{L}\p{N}_]/u;

interface Tag {
  kind: "variable" | "block";
  names: string[];
}

// Sticky and global patterns read the template in place from an index, so no tag copies the text after it.
const RAW_OPEN = /\{%[-+]?\s*raw\s*[-+]?%\}/y;
const RAW_END = /\{%[-+]?\s*endraw\s*[-+]?%\}/g;
const NUMBER = /[0-9][0-9_]*(\.[0-9_]+)?([eE][+-]?[0-9_]+)?/y;

/** The TemplateSyntaxError or TemplateAssertionError Jinja2 raises for this template, or null. */
export function jinjaSyntaxError(template: string): string | null {
  const blocks: string[] = [];
  let position = 0;
  while (position < template.length) {
    const open = nextOpening(template, position);
    if (open === -1) break;
    const marker = template.slice(open, open + 2);
    if (marker === "{#") {
      const close = template.indexOf("#}", open + 2);
      if (close === -1) return "TemplateSyntaxError: Missing end of comment tag";
      position = close + 2;
      continue;
    }
    RAW_OPEN.lastIndex = open;
    const raw = RAW_OPEN.exec(template);
    if (raw) {
      RAW_END.lastIndex = open + raw[0].length;
      const end = RAW_END.exec(template);
      if (!end) return "TemplateSyntaxError: Missing end of raw directive";
      position = end.index + end[0].length;
      continue;
    }
    const kind = marker === "{{" ? "variable" : "block";
    const scanned = scanTag(template, open + 2, kind);
    if (typeof scanned === "string") return scanned;
    position = scanned.end;
    const filterProblem = unknownFilter(scanned.tag);
    if (filterProblem) return filterProblem;
    if (kind === "block") {
      const problem = nestBlock(blocks, scanned.tag.names);
      if (problem) return problem;
    }
  }
  if (blocks.length > 0) return `TemplateSyntaxError: Unexpected end of template. Jinja was looking for the following tags: 'end${blocks[blocks.length - 1]}'.`;
  return null;
}

function nextOpening(template: string, from: number): number {
  const found = [template.indexOf("{{", from), template.indexOf("{%", from), template.indexOf("{#", from)].filter((index) => index >= 0);
  return found.length === 0 ? -1 : Math.min(...found);
}

/** Tokenizes one tag from `start` (after its opening) to its closing, as Jinja2's lexer does inside a tag. */
function scanTag(template: string, start: number, kind: "variable" | "block"): { end: number; tag: Tag } | string {
  const closing = kind === "variable" ? "}}" : "%}";
  // Each open bracket, and for `{` (only ever a dict literal in Jinja2) whether it holds anything and a `:`.
  const brackets: { open: string; content: boolean; colon: boolean }[] = [];
  const names: string[] = [];
  let i = start;
  if (template[i] === "-" || template[i] === "+") i += 1;
  while (i < template.length) {
    const char = template[i] as string;
    if (/\s/.test(char)) {
      i += 1;
      continue;
    }
    if (brackets.length === 0) {
      if (template.startsWith(closing, i)) return { end: i + 2, tag: { kind, names } };
      if ((char === "-" || char === "+") && template.startsWith(closing, i + 1)) return { end: i + 3, tag: { kind, names } };
    }
    if (char === "'" || char === '"') {
      let j = i + 1;
      while (j < template.length && template[j] !== char) j += template[j] === "\\" ? 2 : 1;
      if (j >= template.length) return `TemplateSyntaxError: unexpected char ${JSON.stringify(char)}`;
      names.push("<string>");
      noteContent(brackets, false);
      i = j + 1;
      continue;
    }
    if (/[0-9]/.test(char)) {
      NUMBER.lastIndex = i;
      const number = NUMBER.exec(template)?.[0] ?? char;
      names.push("<number>");
      noteContent(brackets, false);
      i += number.length;
      continue;
    }
    if (NAME_START.test(char)) {
      let j = i + 1;
      while (j < template.length && NAME_PART.test(template[j] as string)) j += 1;
      names.push(template.slice(i, j));
      noteContent(brackets, false);
      i = j;
      continue;
    }
    const operator = OPERATORS.find((candidate) => template.startsWith(candidate, i));
    if (!operator) return `TemplateSyntaxError: unexpected char ${JSON.stringify(char)}`;
    if (operator === "(" || operator === "[" || operator === "{") {
      noteContent(brackets, false);
      brackets.push({ open: operator, content: false, colon: false });
    } else if (operator in CLOSING) {
      const expected = brackets.pop();
      if (expected === undefined) return `TemplateSyntaxError: unexpected '${operator}'`;
      if (expected.open !== CLOSING[operator]) return `TemplateSyntaxError: unexpected '${operator}'`;
      // parse_dict: every key is followed by ':' (`{{{ name }}}` reads as a dict literal without one).
      if (expected.open === "{" && expected.content && !expected.colon) return "TemplateSyntaxError: expected token ':', got '}'";
      noteContent(brackets, false);
    } else noteContent(brackets, operator === ":");
    names.push(operator);
    i += operator.length;
  }
  return "TemplateSyntaxError: unexpected end of template";
}

function noteContent(brackets: { content: boolean; colon: boolean }[], colon: boolean): void {
  const innermost = brackets[brackets.length - 1];
  if (!innermost) return;
  innermost.content = true;
  innermost.colon ||= colon;
}

function unknownFilter(tag: Tag): string | null {
  const tokens = tag.names;
  for (let i = 0; i < tokens.length; i += 1) {
    const filterBlock = tag.kind === "block" && i === 0 && tokens[0] === "filter";
    if (tokens[i] !== "|" && !filterBlock) continue;
    const name = tokens[i + 1];
    if (name === undefined || !NAME_START.test(name)) continue;
    // A dotted filter name (`a.b`) is Jinja2's too: the whole dotted name is looked up.
    const dotted = tokens[i + 2] === "." && tokens[i + 3] !== undefined ? `${name}.${tokens[i + 3]}` : name;
    if (!BUILTIN_FILTERS.has(dotted)) return `TemplateAssertionError: No filter named '${dotted}'.`;
  }
  return null;
}

function nestBlock(blocks: string[], tokens: readonly string[]): string | null {
  const name = tokens[0] ?? "";
  if (!KNOWN_TAGS.has(name) && !(name.startsWith("end") && BLOCK_TAGS.has(name.slice(3)))) return `TemplateSyntaxError: Encountered unknown tag '${name}'.`;
  if (name === "set" && tokens.includes("=")) return null;
  if (BLOCK_TAGS.has(name)) {
    blocks.push(name);
    return null;
  }
  if (name.startsWith("end") && BLOCK_TAGS.has(name.slice(3))) {
    const open = blocks.pop();
    if (open === name.slice(3)) return null;
    return open === undefined
      ? `TemplateSyntaxError: Encountered unknown tag '${name}'.`
      : `TemplateSyntaxError: Encountered unknown tag '${name}'. Jinja was looking for the following tags: 'end${open}'.`;
  }
  if ((name === "else" || name === "elif") && !blocks.some((open) => open === "if" || open === "for")) {
    return `TemplateSyntaxError: Encountered unknown tag '${name}'.`;
  }
  return null;
}
