// Stepping on the diff pages (the turn scrubber's stops, previous / next change) as pure state functions, so the
// keyboard and the buttons always agree.

export interface ScrubberStop {
  round: number;
  /** The run has a response for this round. */
  answered: boolean;
  /** The stop compares round − 1 with this round (round 1 has no previous turn). */
  comparable: boolean;
  current: boolean;
  /** Accessible description: "Round 2 (round 1 → 2)". */
  label: string;
}

export function scrubberStops(roundCount: number, answeredRounds: readonly number[], current: number | null): ScrubberStop[] {
  const answered = new Set(answeredRounds);
  const count = Math.max(0, Math.floor(roundCount), ...answeredRounds);
  const stops: ScrubberStop[] = [];
  for (let round = 1; round <= count; round += 1) {
    const has = answered.has(round);
    const comparable = round > 1 && has && answered.has(round - 1);
    stops.push({
      round,
      answered: has,
      comparable,
      current: round === current,
      label: round === 1 ? "Round 1 (first turn, nothing before it)" : `Round ${round} (round ${round - 1} → ${round})${has ? "" : ", not answered in this run"}`,
    });
  }
  return stops;
}

export type ScrubberKey = "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" | "Home" | "End";

export function isScrubberKey(key: string): key is ScrubberKey {
  return key === "ArrowLeft" || key === "ArrowRight" || key === "ArrowUp" || key === "ArrowDown" || key === "Home" || key === "End";
}

/** The answered round an arrow key (or Home / End) moves to; null when there is none that way. */
export function stepRound(stops: readonly ScrubberStop[], current: number | null, key: ScrubberKey): number | null {
  const answered = stops.filter((stop) => stop.answered).map((stop) => stop.round);
  if (answered.length === 0) return null;
  if (key === "Home") return answered[0] ?? null;
  if (key === "End") return answered[answered.length - 1] ?? null;
  const forward = key === "ArrowRight" || key === "ArrowDown";
  if (current === null) return forward ? (answered[0] ?? null) : (answered[answered.length - 1] ?? null);
  const next = forward ? answered.find((round) => round > current) : [...answered].reverse().find((round) => round < current);
  return next ?? null;
}

export function stepChange(count: number, current: number | null, delta: -1 | 1): number | null {
  if (count <= 0) return null;
  if (current === null) return delta > 0 ? 0 : count - 1;
  return Math.min(count - 1, Math.max(0, current + delta));
}

export function changeShortcut(key: string): -1 | 1 | null {
  if (key === "n" || key === "j") return 1;
  if (key === "p" || key === "k") return -1;
  return null;
}
