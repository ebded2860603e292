// Bounds what one response page carries: every long text (model output, pretty JSON, YAML, judge reasons) is cut to
// a fixed number of characters for display, with the full length reported so the page can offer the whole text as a
// download instead. Pure; a page built from clipped texts stays under a fixed size whatever the model wrote.

import type { ResponseView } from "./response-view";

/** Characters of one text shown inline on a page; longer texts are cut here and offered as a download. */
export const PAGE_TEXT_LIMIT = 20_000;

export interface ClippedText {
  text: string;
  /** Length of the whole text in characters (equal to text.length when nothing was cut). */
  totalLength: number;
  clipped: boolean;
}

export function clipText(text: string, limit = PAGE_TEXT_LIMIT): ClippedText {
  if (text.length <= limit) return { text, totalLength: text.length, clipped: false };
  // Never cut a surrogate pair in half.
  const end = /[\uD800-\uDBFF]/.test(text.charAt(limit - 1)) ? limit - 1 : limit;
  return { text: text.slice(0, end), totalLength: text.length, clipped: true };
}

export function clipNullable(text: string | null, limit = PAGE_TEXT_LIMIT): string | null {
  return text === null ? null : clipText(text, limit).text;
}

/** The fields of a response page that can be downloaded whole. */
export const DOWNLOADABLE_FIELDS = ["raw", "nodeSelection", "designPrinciple", "workflow", "json", "yaml"] as const;
export type DownloadableField = (typeof DOWNLOADABLE_FIELDS)[number];

export function isDownloadableField(value: unknown): value is DownloadableField {
  return typeof value === "string" && (DOWNLOADABLE_FIELDS as readonly string[]).includes(value);
}

/** The full text of a downloadable field of a view (the original version first, else the repaired one). */
export function fullFieldText(view: ResponseView, field: DownloadableField): string | null {
  switch (field) {
    case "raw":
    case "nodeSelection":
    case "designPrinciple":
    case "workflow":
      return view.texts[field];
    case "json":
      return view.original.prettyJson ?? view.repaired.prettyJson;
    case "yaml":
      return view.original.yaml ?? view.repaired.yaml;
  }
}

/** Lengths of the texts that a page shows clipped, by field (absent when shown whole). */
export type ClippedFields = Partial<Record<DownloadableField, number>>;

/** The view with every long text cut to `limit` characters, and which fields were cut. */
export function clipResponseView(view: ResponseView, limit = PAGE_TEXT_LIMIT): { view: ResponseView; clipped: ClippedFields } {
  const clipped: ClippedFields = {};
  for (const field of DOWNLOADABLE_FIELDS) {
    const text = fullFieldText(view, field);
    if (text !== null && text.length > limit) clipped[field] = text.length;
  }
  const cut = (text: string | null) => clipNullable(text, limit);
  return {
    view: {
      ...view,
      texts: { raw: cut(view.texts.raw), nodeSelection: cut(view.texts.nodeSelection), designPrinciple: cut(view.texts.designPrinciple), workflow: cut(view.texts.workflow) },
      original: { ...view.original, prettyJson: cut(view.original.prettyJson), yaml: cut(view.original.yaml) },
      repaired: { ...view.repaired, prettyJson: cut(view.repaired.prettyJson), yaml: cut(view.repaired.yaml) },
    },
    clipped,
  };
}
