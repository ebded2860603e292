"use client";

import { useEffect } from "react";

/** Sets the tab title where a route cannot export metadata (e.g. the forbidden() page). */
export function DocumentTitle({ title }: { title: string }) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return null;
}
