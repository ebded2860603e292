// Model output as sanitised Markdown: raw HTML is shown as text (never parsed), links open safely and are marked
// nofollow, images are not loaded (their alt text is shown), and unsafe URLs are dropped by react-markdown.
import Markdown, { type Components } from "react-markdown";

const components: Components = {
  a: ({ href, children }) => (
    <a href={href} rel="noopener noreferrer nofollow" target="_blank" className="text-brand-700 underline dark:text-brand-300">
      {children}
    </a>
  ),
  img: ({ alt }) => <span className="rounded bg-slate-100 px-1 text-slate-600 dark:bg-slate-800 dark:text-slate-300">[image: {alt ?? ""}]</span>,
  h1: ({ children }) => <h4 className="mt-3 text-base font-semibold">{children}</h4>,
  h2: ({ children }) => <h4 className="mt-3 text-base font-semibold">{children}</h4>,
  h3: ({ children }) => <h5 className="mt-2 text-sm font-semibold">{children}</h5>,
  h4: ({ children }) => <h5 className="mt-2 text-sm font-semibold">{children}</h5>,
  ul: ({ children }) => <ul className="ml-5 list-disc space-y-0.5">{children}</ul>,
  ol: ({ children }) => <ol className="ml-5 list-decimal space-y-0.5">{children}</ol>,
  p: ({ children }) => <p className="my-1.5">{children}</p>,
  code: ({ children }) => <code className="rounded bg-slate-100 px-1 font-mono text-[0.85em] dark:bg-slate-800">{children}</code>,
  pre: ({ children }) => <pre className="my-2 overflow-x-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-800">{children}</pre>,
  table: ({ children }) => <table className="my-2 text-xs">{children}</table>,
};

export function SafeMarkdown({ children, className = "" }: { children: string; className?: string }) {
  return (
    <div className={`text-sm leading-6 break-words text-slate-800 dark:text-slate-200 ${className}`}>
      <Markdown skipHtml={false} components={components}>
        {children}
      </Markdown>
    </div>
  );
}
