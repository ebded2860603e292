// Display helpers for grading values: raw scores of every formula shape, norms and grade tones.
import type { BadgeTone } from "@/components/ui/badge";
import type { RawScore } from "@/lib/grading/formulas";
import type { Grade } from "@/lib/grading/grade";

export function formatRaw(raw: RawScore | null): string {
  if (raw === null) return "—";
  if (typeof raw === "number") return Number.isInteger(raw) ? String(raw) : raw.toFixed(3).replace(/0+$/, "");
  if ("wins" in raw) return `${raw.wins} W / ${raw.losses} L / ${raw.ties} T`;
  return `${raw.passed} / ${raw.total}`;
}

export function formatNorm(value: number | null): string {
  return value === null ? "—" : value.toFixed(3);
}

export function gradeTone(grade: Grade): BadgeTone {
  if (grade === "A" || grade === "B") return "good";
  if (grade === "C") return "info";
  if (grade === "D") return "warn";
  return "bad";
}
