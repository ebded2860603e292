import { describe, expect, it } from "vitest";
import { resolveShortcut, SHORTCUTS, shortcutsFor, type ShortcutContext } from "./shortcuts";

const reveal: ShortcutContext = { mode: "reveal", inTextField: false, helpOpen: false };
const blind: ShortcutContext = { mode: "blind", inTextField: false, helpOpen: false };

describe("review keyboard map", () => {
  it("maps verdict keys by mode: c / i when the judge is shown, p / f when voting blind", () => {
    expect(resolveShortcut({ key: "c" }, reveal)).toBe("judge-correct");
    expect(resolveShortcut({ key: "i" }, reveal)).toBe("judge-incorrect");
    expect(resolveShortcut({ key: "p" }, reveal)).toBeNull();
    expect(resolveShortcut({ key: "p" }, blind)).toBe("own-pass");
    expect(resolveShortcut({ key: "f" }, blind)).toBe("own-fail");
    expect(resolveShortcut({ key: "c" }, blind)).toBeNull();
  });

  it("maps rules, submit, navigation, comment and help in both modes, letters in either case", () => {
    for (const context of [reveal, blind]) {
      expect(resolveShortcut({ key: "y" }, context)).toBe("rules-yes");
      expect(resolveShortcut({ key: "N" }, context)).toBe("rules-no");
      expect(resolveShortcut({ key: "u" }, context)).toBe("rules-unsure");
      expect(resolveShortcut({ key: "Enter" }, context)).toBe("submit");
      expect(resolveShortcut({ key: "j" }, context)).toBe("next");
      expect(resolveShortcut({ key: "ArrowRight" }, context)).toBe("next");
      expect(resolveShortcut({ key: "k" }, context)).toBe("back");
      expect(resolveShortcut({ key: "ArrowLeft" }, context)).toBe("back");
      expect(resolveShortcut({ key: "e" }, context)).toBe("comment");
      expect(resolveShortcut({ key: "?" }, context)).toBe("help");
    }
  });

  it("lets the comment field take every key but Esc and Ctrl/Cmd+Enter", () => {
    const typing = { ...reveal, inTextField: true };
    expect(resolveShortcut({ key: "c" }, typing)).toBeNull();
    expect(resolveShortcut({ key: "Enter" }, typing)).toBeNull();
    expect(resolveShortcut({ key: "Enter", ctrlKey: true }, typing)).toBe("submit");
    expect(resolveShortcut({ key: "Enter", metaKey: true }, typing)).toBe("submit");
    expect(resolveShortcut({ key: "Escape" }, typing)).toBe("close");
  });

  it("leaves browser shortcuts alone", () => {
    expect(resolveShortcut({ key: "c", ctrlKey: true }, reveal)).toBeNull();
    expect(resolveShortcut({ key: "k", metaKey: true }, reveal)).toBeNull();
    expect(resolveShortcut({ key: "ArrowLeft", altKey: true }, reveal)).toBeNull();
  });

  it("only closes while the help is open", () => {
    const help = { ...reveal, helpOpen: true };
    expect(resolveShortcut({ key: "c" }, help)).toBeNull();
    expect(resolveShortcut({ key: "Escape" }, help)).toBe("close");
    expect(resolveShortcut({ key: "?" }, help)).toBe("close");
  });

  it("lists every working key exactly once per mode in the help", () => {
    for (const mode of ["blind", "reveal"] as const) {
      const keys = shortcutsFor(mode).flatMap((shortcut) => shortcut.keys.map((key) => key.toLowerCase()));
      expect(new Set(keys).size).toBe(keys.length);
      for (const shortcut of shortcutsFor(mode)) {
        for (const key of shortcut.keys) expect(resolveShortcut({ key }, { mode, inTextField: false, helpOpen: false })).toBe(shortcut.action);
      }
    }
    expect(shortcutsFor("reveal").length + shortcutsFor("blind").length).toBe(2 * SHORTCUTS.length - 4);
  });
});
