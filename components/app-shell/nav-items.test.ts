import { describe, expect, it } from "vitest";
import { navigationFor, navLinks } from "./nav-items";

const labels = (role: Parameters<typeof navigationFor>[0]) => navLinks(navigationFor(role)).map((item) => item.label);

describe("the main navigation per role", () => {
  it("gives admins and researchers every section, annotators review but not evaluation, viewers and visitors only reading", () => {
    const everything = ["Leaderboard", "Charts", "Tasks", "Runs", "Diff", "Compare models", "Diagnostics", "Review", "Judges", "Promote", "Evaluations", "Import", "Jobs", "Settings"];
    expect(labels("admin")).toEqual(everything);
    expect(labels("researcher")).toEqual(everything);
    expect(labels("annotator")).toEqual(["Leaderboard", "Charts", "Tasks", "Runs", "Diff", "Compare models", "Diagnostics", "Review", "Judges", "Promote", "Settings"]);
    expect(labels("viewer")).toEqual(["Leaderboard", "Charts", "Tasks", "Runs", "Diff", "Compare models", "Diagnostics", "Judges", "Promote", "Settings"]);
    expect(labels(null)).toEqual(["Leaderboard", "Charts", "Tasks", "Runs", "Diff", "Compare models", "Diagnostics", "Judges", "Promote"]);
  });

  it("drops a group whose items the role may not open", () => {
    expect(navigationFor("viewer").map((entry) => entry.label)).toEqual(["Leaderboard", "Explore", "Judging", "Settings"]);
  });
});
