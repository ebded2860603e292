import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { brokenLinks, headingAnchor, headingAnchors, markdownLinks, projectMarkdownFiles } from "./doc-links";

const ROOT = path.resolve(__dirname, "..", "..");

describe("links between the project's documents", () => {
  it("make GitHub's anchors from headings, numbering repeats", () => {
    expect(headingAnchor("Judged by: the leaderboard under another judge, and judge quality")).toBe("judged-by-the-leaderboard-under-another-judge-and-judge-quality");
    expect(headingAnchor("Starting the app: `npm start`, `npm run dev`")).toBe("starting-the-app-npm-start-npm-run-dev");
    expect([...headingAnchors("# A\n## B\n```\n# not a heading\n```\n## B\n")]).toEqual(["a", "b", "b-1"]);
  });

  it("read links outside code only", () => {
    expect(markdownLinks("see [a](docs/a.md) and `[b](b.md)`\n```\n[c](c.md)\n```\n[d](#d)")).toEqual([
      { line: 1, target: "docs/a.md" },
      { line: 5, target: "#d" },
    ]);
  });

  it("lead to a file and heading that exist, from the README, CONTRIBUTING and every page under docs/", () => {
    const files = projectMarkdownFiles(ROOT);
    expect(files).toEqual(expect.arrayContaining(["README.md", "CONTRIBUTING.md", path.join("docs", "architecture.md")]));
    expect(files.flatMap((file) => brokenLinks(ROOT, file))).toEqual([]);
  });

  it("name every folder under lib/ on the architecture page", () => {
    const folders = (dir: string): string[] =>
      readdirSync(path.join(ROOT, dir), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .flatMap((entry) => [`${dir}/${entry.name}/`, ...folders(`${dir}/${entry.name}`)]);
    const all = folders("lib");
    expect(all.length).toBeGreaterThan(20);
    const page = readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");
    expect(all.filter((folder) => !page.includes(`\`${folder}\``))).toEqual([]);
  });
});
