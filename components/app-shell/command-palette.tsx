"use client";

// The command palette: "/" or Ctrl/⌘-K anywhere (outside text fields) opens a search over models, tasks, runs and
// response ids; arrow keys move, Enter opens, Escape closes. Results come from /api/search.
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, type KeyboardEvent as ReactKeyboardEvent } from "react";
import { MIN_QUERY_LENGTH, SEARCH_KIND_LABELS, type SearchResult } from "@/lib/search/results";

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

export function CommandPalette() {
  const router = useRouter();
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<SearchResult[]>([]);
  const [active, setActive] = useState(0);
  const [state, setState] = useState<"idle" | "loading" | "done" | "error">("idle");

  const open = () => {
    dialog.current?.showModal();
    input.current?.select();
  };

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const palette = (event.key === "k" || event.key === "K") && (event.ctrlKey || event.metaKey);
      const slash = event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && !isTyping(event.target);
      if (!palette && !slash) return;
      if (dialog.current?.open) return;
      event.preventDefault();
      dialog.current?.showModal();
      input.current?.select();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  useEffect(() => {
    const text = query.trim();
    if (text.length < MIN_QUERY_LENGTH) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setState("loading");
      fetch(`/api/search?q=${encodeURIComponent(text)}`, { signal: controller.signal })
        .then((response) => (response.ok ? (response.json() as Promise<{ results: SearchResult[] }>) : Promise.reject(new Error(String(response.status)))))
        .then((body) => {
          setResults(body.results);
          setActive(0);
          setState("done");
        })
        .catch((error: unknown) => {
          if (!(error instanceof DOMException && error.name === "AbortError")) setState("error");
        });
    }, 150);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  // Below two characters nothing is searched; what an earlier query found is not shown.
  const short = query.trim().length < MIN_QUERY_LENGTH;
  const shown = short ? [] : results;
  const status = short ? "idle" : state;

  const go = (result: SearchResult | undefined) => {
    if (!result) return;
    dialog.current?.close();
    router.push(result.href);
  };

  const onInputKey = (event: ReactKeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown") {
      event.preventDefault();
      setActive((index) => Math.min(index + 1, Math.max(shown.length - 1, 0)));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      setActive((index) => Math.max(index - 1, 0));
    } else if (event.key === "Enter") {
      event.preventDefault();
      go(shown[active]);
    }
  };

  return (
    <>
      <button
        type="button"
        onClick={open}
        className="hidden items-center gap-2 rounded-md border border-slate-300 px-2.5 py-1 text-sm text-slate-500 hover:bg-slate-50 md:inline-flex dark:border-slate-600 dark:text-slate-400 dark:hover:bg-slate-800"
        aria-keyshortcuts="/ Control+K"
      >
        Search <kbd className="rounded border border-slate-300 px-1 font-mono text-xs dark:border-slate-600">/</kbd>
      </button>
      <dialog
        ref={dialog}
        aria-label="Command palette: find a model, task, run or response"
        className="mx-auto mt-[12vh] w-[min(40rem,calc(100vw-2rem))] rounded-xl border border-slate-200 bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-900/40 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        onClose={() => setQuery("")}
        onClick={(event) => {
          if (event.target === dialog.current) dialog.current?.close();
        }}
        data-testid="command-palette"
      >
        <div className="border-b border-slate-200 p-3 dark:border-slate-700">
          <input
            ref={input}
            type="search"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={onInputKey}
            placeholder="A model, task, run or response id…"
            aria-label="Search"
            role="combobox"
            aria-expanded={shown.length > 0}
            aria-controls={listId}
            aria-activedescendant={shown[active] ? `${listId}-${active}` : undefined}
            className="w-full bg-transparent text-base outline-none"
          />
        </div>
        <ul id={listId} role="listbox" aria-label="Results" className="max-h-[50vh] overflow-y-auto p-1">
          {shown.map((result, index) => (
            <li
              key={`${result.kind}-${result.href}`}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseEnter={() => setActive(index)}
              onClick={() => go(result)}
              className={`flex cursor-pointer items-baseline gap-3 rounded-md px-3 py-2 ${index === active ? "bg-brand-50 dark:bg-slate-800" : ""}`}
              data-testid="palette-result"
              data-kind={result.kind}
            >
              <span className="w-20 shrink-0 text-xs uppercase tracking-wide text-slate-500">{SEARCH_KIND_LABELS[result.kind]}</span>
              <span className="min-w-0 flex-1">
                <span className="block truncate font-medium">{result.title}</span>
                <span className="block truncate text-xs text-slate-500">{result.detail}</span>
              </span>
            </li>
          ))}
        </ul>
        <p className="border-t border-slate-200 px-3 py-2 text-xs text-slate-500 dark:border-slate-700" role="status">
          {status === "loading"
            ? "Searching…"
            : status === "error"
              ? "The search failed; try again."
              : status === "done" && shown.length === 0
                ? "Nothing matches."
                : short
                  ? "Type at least two characters. ↑ ↓ choose, Enter opens, Esc closes."
                  : "↑ ↓ choose, Enter opens, Esc closes."}
        </p>
      </dialog>
    </>
  );
}
