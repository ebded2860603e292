// Stand-in for the `server-only` guard when server modules run under Vitest.
export {};
