// A link that switches one of the leaderboard's optional sections on or off (`?<flag>=1`), keeping the other query
// parameters.
import Link from "next/link";
import { buttonStyles } from "@/components/ui/styles";

export type QueryParams = Record<string, string | string[] | undefined>;

export function QueryToggle({ params, flag, show, hide, testId }: { params: QueryParams; flag: string; show: string; hide: string; testId: string }) {
  const next = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (key === flag || value === undefined) continue;
    for (const entry of Array.isArray(value) ? value : [value]) next.append(key, entry);
  }
  const on = params[flag] === "1";
  if (!on) next.set(flag, "1");
  const query = next.toString();
  return (
    <Link href={`/${query ? `?${query}` : ""}`} className={buttonStyles.secondary} data-testid={testId} data-on={on ? "true" : "false"}>
      {on ? hide : show}
    </Link>
  );
}
