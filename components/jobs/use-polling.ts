"use client";

import { useCallback, useEffect, useState } from "react";

/**
 * Fetches `url` every `intervalMs` while `keepPolling(data)` says the data can still change (a job is active).
 * Returns the latest data, an error message, and a function to refetch at once (after a control).
 */
export function usePolling<T>(url: string, initial: T, keepPolling: (data: T) => boolean, intervalMs = 1_500) {
  const [data, setData] = useState<T>(initial);
  const [error, setError] = useState<string | null>(null);
  const active = keepPolling(data);

  const refetch = useCallback(async (): Promise<void> => {
    try {
      const response = await fetch(url, { cache: "no-store" });
      if (!response.ok) {
        setError(response.status === 404 ? "Not found." : `The server answered ${response.status}.`);
        return;
      }
      setData((await response.json()) as T);
      setError(null);
    } catch {
      setError("Could not reach the server; retrying.");
    }
  }, [url]);

  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => void refetch(), intervalMs);
    return () => clearInterval(timer);
  }, [active, refetch, intervalMs]);

  return { data, error, refetch };
}
