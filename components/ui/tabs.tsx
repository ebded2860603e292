"use client";
// Accessible tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs; panels stay mounted but
// hidden. Each tab may carry text that can be copied or downloaded as a file.
import { useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { buttonStyles } from "./styles";

export interface TabItem {
  id: string;
  label: string;
  content: ReactNode;
  /** Text offered by the Copy and Download buttons. */
  text?: string;
  /** Download file name; no Download button without it. */
  filename?: string;
  /** Where the server serves the whole text, for texts too long to send with the page (used when `text` is absent). */
  downloadHref?: string;
  mime?: string;
}

function download(text: string, filename: string, mime: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mime }));
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.rel = "noopener";
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Downloads a file the server serves (a text too long to travel with the page). */
function downloadFrom(href: string, filename: string): void {
  const link = document.createElement("a");
  link.href = href;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
}

export function Tabs({ items, label, initial }: { items: readonly TabItem[]; label: string; initial?: string }) {
  const base = useId();
  const [active, setActive] = useState(initial && items.some((item) => item.id === initial) ? initial : items[0]?.id);
  const [status, setStatus] = useState("");
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const activeIndex = Math.max(0, items.findIndex((item) => item.id === active));
  const current = items[activeIndex];

  const move = (index: number) => {
    const item = items[(index + items.length) % items.length];
    if (!item) return;
    setActive(item.id);
    setStatus("");
    tabs.current[(index + items.length) % items.length]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    const keys: Record<string, number> = { ArrowRight: activeIndex + 1, ArrowLeft: activeIndex - 1, Home: 0, End: items.length - 1 };
    const next = keys[event.key];
    if (next === undefined) return;
    event.preventDefault();
    move(next);
  };
  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus("Copied to the clipboard.");
    } catch {
      setStatus("Copying failed: the browser did not allow access to the clipboard.");
    }
  };

  return (
    <div className="rounded-xl border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b border-slate-200 px-2 pt-2 dark:border-slate-800">
        <div role="tablist" aria-label={label} className="flex flex-wrap gap-1">
          {items.map((item, index) => {
            const selected = index === activeIndex;
            return (
              <button
                key={item.id}
                ref={(element) => {
                  tabs.current[index] = element;
                }}
                type="button"
                role="tab"
                id={`${base}-tab-${item.id}`}
                aria-selected={selected}
                aria-controls={`${base}-panel-${item.id}`}
                tabIndex={selected ? 0 : -1}
                onClick={() => move(index)}
                onKeyDown={onKeyDown}
                className={`-mb-px rounded-t-md border px-3 py-1.5 text-sm ${selected ? "border-slate-200 border-b-white bg-white font-medium dark:border-slate-700 dark:border-b-slate-900 dark:bg-slate-900" : "border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100"}`}
              >
                {item.label}
              </button>
            );
          })}
        </div>
        {current?.text !== undefined ? (
          <div className="flex items-center gap-2 pb-2">
            <button type="button" className={buttonStyles.secondary} onClick={() => void copy(current.text as string)}>
              Copy
            </button>
            {current.filename ? (
              <button
                type="button"
                className={buttonStyles.secondary}
                onClick={() => {
                  download(current.text as string, current.filename as string, current.mime ?? "text/plain");
                  setStatus(`Downloaded ${current.filename}.`);
                }}
              >
                Download {current.filename}
              </button>
            ) : null}
          </div>
        ) : current?.downloadHref && current.filename ? (
          <div className="flex items-center gap-2 pb-2">
            <button
              type="button"
              className={buttonStyles.secondary}
              onClick={() => {
                downloadFrom(current.downloadHref as string, current.filename as string);
                setStatus(`Downloading ${current.filename}.`);
              }}
            >
              Download {current.filename}
            </button>
          </div>
        ) : null}
      </div>
      <p role="status" aria-live="polite" className="sr-only">
        {status}
      </p>
      {items.map((item, index) => (
        <div
          key={item.id}
          role="tabpanel"
          id={`${base}-panel-${item.id}`}
          aria-labelledby={`${base}-tab-${item.id}`}
          hidden={index !== activeIndex}
          tabIndex={0}
          className="p-3"
        >
          {item.content}
        </div>
      ))}
    </div>
  );
}
