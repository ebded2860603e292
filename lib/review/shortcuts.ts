// The review page's keyboard map: one table that both handles key presses and fills the help overlay, so the help
// can never list a key that does nothing. Pure: takes the key event's fields, returns the action or null.

import type { ReviewMode } from "./queue";

export type ShortcutAction =
  | "judge-correct"
  | "judge-incorrect"
  | "own-pass"
  | "own-fail"
  | "rules-yes"
  | "rules-no"
  | "rules-unsure"
  | "submit"
  | "next"
  | "back"
  | "comment"
  | "help"
  | "prompt"
  | "close";

export interface Shortcut {
  action: ShortcutAction;
  /** KeyboardEvent.key values, compared case-insensitively for letters. */
  keys: readonly string[];
  /** How the help overlay writes the keys. */
  label: string;
  description: string;
  /** Modes the key works in; absent means both. */
  modes?: readonly ReviewMode[];
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: "judge-correct", keys: ["c"], label: "c", description: "The judge's verdict is correct", modes: ["reveal"] },
  { action: "judge-incorrect", keys: ["i"], label: "i", description: "The judge's verdict is incorrect", modes: ["reveal"] },
  { action: "own-pass", keys: ["p"], label: "p", description: "Your verdict: the response passes", modes: ["blind"] },
  { action: "own-fail", keys: ["f"], label: "f", description: "Your verdict: the response fails", modes: ["blind"] },
  { action: "rules-yes", keys: ["y"], label: "y", description: "The judge followed its prompt's rules" },
  { action: "rules-no", keys: ["n"], label: "n", description: "The judge did not follow its prompt's rules" },
  { action: "rules-unsure", keys: ["u"], label: "u", description: "Unsure whether the judge followed its rules" },
  { action: "comment", keys: ["e"], label: "e", description: "Write a comment (Esc leaves the field)" },
  { action: "submit", keys: ["Enter"], label: "Enter", description: "Save the vote and go to the next item; in blind review the first Enter reveals the judge (Ctrl+Enter in the comment)" },
  { action: "next", keys: ["j", "ArrowRight"], label: "j or →", description: "Next item (skips an item you have not voted on)" },
  { action: "back", keys: ["k", "ArrowLeft"], label: "k or ←", description: "Back to your previous vote, to review or change it" },
  { action: "prompt", keys: ["s"], label: "s", description: "Show or hide the judge's system prompt (the rules it had to follow)" },
  { action: "help", keys: ["?"], label: "?", description: "Show or hide this list of shortcuts" },
  { action: "close", keys: ["Escape"], label: "Esc", description: "Close this list, or leave the comment field" },
];

/** The shortcuts that work in a mode, in help-overlay order. */
export function shortcutsFor(mode: ReviewMode): Shortcut[] {
  return SHORTCUTS.filter((shortcut) => !shortcut.modes || shortcut.modes.includes(mode));
}

export interface KeyInput {
  key: string;
  ctrlKey?: boolean;
  metaKey?: boolean;
  altKey?: boolean;
}

export interface ShortcutContext {
  mode: ReviewMode;
  /** Focus is in a text field: only Esc and Ctrl/Cmd+Enter act there, everything else is typing. */
  inTextField: boolean;
  helpOpen: boolean;
}

function sameKey(pressed: string, key: string): boolean {
  return key.length === 1 ? pressed.toLowerCase() === key.toLowerCase() : pressed === key;
}

export function resolveShortcut(input: KeyInput, context: ShortcutContext): ShortcutAction | null {
  const modified = Boolean(input.ctrlKey || input.metaKey);
  if (context.inTextField) {
    if (input.key === "Escape") return "close";
    if (input.key === "Enter" && modified) return "submit";
    return null;
  }
  if (context.helpOpen) return input.key === "Escape" || input.key === "?" ? "close" : null;
  // Leave browser and system shortcuts (Ctrl+C, Cmd+K, Alt+←) alone.
  if (input.altKey || (modified && input.key !== "Enter")) return null;
  const match = shortcutsFor(context.mode).find((shortcut) => shortcut.keys.some((key) => sameKey(input.key, key)));
  return match?.action ?? null;
}
