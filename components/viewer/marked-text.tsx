// A response text with numbered lines and the positions diagnostics point at highlighted (as inert text).
// Each highlight carries the id `diag-mark-<diagnostic id>` so the diagnostic list can link to it.
import { markLines, type TextMark } from "@/lib/viewer/text-marks";

const MARK_CLASSES = {
  error: "bg-red-200 text-red-950 underline decoration-red-600 decoration-wavy dark:bg-red-900 dark:text-red-50",
  warning: "bg-amber-200 text-amber-950 dark:bg-amber-900 dark:text-amber-50",
  info: "bg-blue-200 text-blue-950 dark:bg-blue-900 dark:text-blue-50",
} as const;

export interface MarkedTextProps {
  text: string;
  marks: readonly TextMark[];
  label: string;
  /** Show line numbers (for JSON); plain prose wraps without them. */
  lineNumbers?: boolean;
  maxHeight?: number;
  /** Give highlights their `diag-mark-<id>` anchors (only one rendering of a text should). */
  anchors?: boolean;
  /** Number of the text's first line (for excerpts). */
  firstLine?: number;
}

export function MarkedText({ text, marks, label, lineNumbers = true, maxHeight = 480, anchors = true, firstLine = 1 }: MarkedTextProps) {
  const lines = markLines(text, marks);
  const severityOf = new Map(marks.map((mark) => [mark.id, mark.severity]));
  const seen = new Set<number>();
  const anchorFor = (ids: number[]): string | undefined => {
    if (!anchors) return undefined;
    const first = ids.find((id) => !seen.has(id));
    if (first === undefined) return undefined;
    seen.add(first);
    return `diag-mark-${first}`;
  };
  return (
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="overflow-auto rounded-md border border-slate-200 bg-slate-50 font-mono text-xs leading-5 dark:border-slate-800 dark:bg-slate-900"
      style={{ maxHeight }}
    >
      <table className="w-full border-collapse">
        <tbody>
          {lines.map((line) => {
            const marked = line.segments.some((s) => s.marks.length > 0);
            return (
              <tr key={line.number} className={marked ? "bg-red-50 dark:bg-red-950/30" : undefined} data-marked={marked ? "true" : undefined}>
                {lineNumbers ? (
                  <td className="w-10 select-none border-r border-slate-200 pr-2 text-right align-top text-slate-500 dark:border-slate-800 dark:text-slate-400">{line.number + firstLine - 1}</td>
                ) : null}
                <td className="pl-2 align-top whitespace-pre-wrap break-all">
                  {line.segments.map((segment, i) => {
                    if (segment.marks.length === 0) return <span key={i}>{segment.text}</span>;
                    const severity = severityOf.get(segment.marks[0] as number) ?? "error";
                    if (segment.caret) {
                      return (
                        <span key={i} id={anchorFor(segment.marks)} data-testid="text-mark" className={`inline-block w-2 rounded-sm ${MARK_CLASSES[severity]}`} title="The problem is here">
                          ▏
                        </span>
                      );
                    }
                    return (
                      <mark key={i} id={anchorFor(segment.marks)} data-testid="text-mark" className={`rounded-sm ${MARK_CLASSES[severity]}`}>
                        {segment.text}
                      </mark>
                    );
                  })}
                  {line.segments.length === 0 ? "\u00a0" : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
