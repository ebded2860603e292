// Labels of a response's artifact tabs (pretty JSON, Dify YAML): they say "repaired" only when a repair actually
// produced what the tab shows, and "none" when neither the original nor any repair yields it. Pure.

export function artifactTabLabel(name: string, original: string | null | undefined, repaired: string | null | undefined): string {
  if (original) return name;
  if (repaired) return `${name} (repaired)`;
  return `${name} (none)`;
}
