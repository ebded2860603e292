import { describe, expect, it } from "vitest";
import { namedVariables } from "./instruction";

describe("namedVariables", () => {
  it("reads the names an instruction gives, plain, quoted and listed", () => {
    expect(namedVariables("The user will provide the paper file (variable paper) and the target language (variable language).")).toEqual(["paper", "language"]);
    expect(namedVariables("a question (variable 'requirement') and an illustration (variable 'picture')")).toEqual(["requirement", "picture"]);
    expect(namedVariables("two questions (variables question_1 and question_2)")).toEqual(["question_1", "question_2"]);
    expect(namedVariables("the extracted fields (variables topic, target_length, style, target_audience)")).toEqual(["topic", "target_length", "style", "target_audience"]);
  });
  it("names each variable once and ignores parentheses that name none", () => {
    expect(namedVariables("output (variable result) then (variable result) again (see above) (variable two words)")).toEqual(["result"]);
    expect(namedVariables("no variables here")).toEqual([]);
  });
});
