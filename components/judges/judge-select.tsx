"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { inputStyles, labelStyles } from "@/components/ui/styles";
import type { JudgeOption } from "@/lib/judge/choice";


/** Chooses whose step 1_4 and resolve verdicts the page's figures use, keeping the other URL parameters. */
export function JudgeSelect({ options, value }: { options: readonly JudgeOption[]; value: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const listed = options.some((option) => option.value === value) ? options : [...options, { value, label: value }];
  return (
    <label className={`${labelStyles} max-w-xs`}>
      Judged by
      <select
        className={inputStyles}
        value={value}
        data-testid="judge-select"
        onChange={(event) => {
          const params = new URLSearchParams(searchParams.toString());
          if (event.target.value) params.set("judge", event.target.value);
          else params.delete("judge");
          const query = params.toString();
          router.push(`${pathname}${query ? `?${query}` : ""}`);
        }}
      >
        {listed.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}
