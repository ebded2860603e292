"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { inputStyles, labelStyles } from "@/components/ui/styles";
import type { BenchmarkChoice } from "@/lib/leaderboard/benchmarks";

/** Switches the page to another imported benchmark, keeping the other URL parameters. Hidden with one benchmark. */
export function BenchmarkSelect({ choices, value }: { choices: BenchmarkChoice[]; value: string }) {
  const router = useRouter();
  const pathname = usePathname();
  const searchParams = useSearchParams();
  if (choices.length < 2) return null;
  return (
    <label className={`${labelStyles} max-w-xs`}>
      Benchmark
      <select
        className={inputStyles}
        value={value}
        onChange={(event) => {
          const params = new URLSearchParams(searchParams.toString());
          params.set("benchmark", event.target.value);
          router.push(`${pathname}?${params}`);
        }}
      >
        {choices.map((choice) => (
          <option key={choice.id} value={choices.filter((other) => other.name === choice.name).length > 1 ? choice.id : choice.name}>
            {choice.name} ({choice.runCount} runs)
          </option>
        ))}
      </select>
    </label>
  );
}
