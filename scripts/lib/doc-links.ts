// Finds relative links in the project's Markdown that lead nowhere (a missing file, or a heading the target lacks),
// so moving a section between documents cannot silently break the links into it.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

/** GitHub's anchor for a heading: lower case, punctuation other than `-` and `_` dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown text's headings (outside code fences), numbered as GitHub numbers repeats. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = headingAnchor(heading[1]!);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Every inline link `[text](target)` outside code fences and code spans, with its line number. */
export function markdownLinks(markdown: string): { line: number; target: string }[] {
  const links: { line: number; target: string }[] = [];
  let fenced = false;
  markdown.split("\n").forEach((text, index) => {
    if (/^\s*```/.test(text)) fenced = !fenced;
    if (fenced) return;
    const withoutCode = text.replace(/`[^`]*`/g, "");
    for (const match of withoutCode.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ line: index + 1, target: match[1]! });
  });
  return links;
}

/** The broken relative links of one Markdown file; absolute URLs and mail links are not followed. */
export function brokenLinks(root: string, file: string): BrokenLink[] {
  const absolute = path.join(root, file);
  const broken: BrokenLink[] = [];
  for (const { line, target } of markdownLinks(readFileSync(absolute, "utf8"))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [pathPart, anchor] = target.split("#", 2) as [string, string | undefined];
    const resolved = pathPart === "" ? absolute : path.resolve(path.dirname(absolute), decodeURIComponent(pathPart));
    if (!resolved.startsWith(root + path.sep) && resolved !== root) {
      broken.push({ file, line, target, reason: "leads outside the project" });
    } else if (!existsSync(resolved)) {
      broken.push({ file, line, target, reason: "no such file" });
    } else if (anchor !== undefined && statSync(resolved).isFile() && resolved.endsWith(".md")) {
      if (!headingAnchors(readFileSync(resolved, "utf8")).has(anchor)) broken.push({ file, line, target, reason: `no heading #${anchor}` });
    }
  }
  return broken;
}

/** The project's own Markdown: the top-level documents and everything under docs/. */
export function projectMarkdownFiles(root: string): string[] {
  const top = readdirSync(root).filter((name) => name.endsWith(".md"));
  const docs: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith(".md")) docs.push(relative);
    }
  };
  if (existsSync(path.join(root, "docs"))) walk("docs");
  return [...top, ...docs, ...(existsSync(path.join(root, "prisma", "demo", "README.md")) ? ["prisma/demo/README.md"] : [])];
}
