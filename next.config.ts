import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Database drivers, their Prisma adapters and the PostgreSQL job queue (pg-boss) stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3", "pg", "@prisma/adapter-pg", "pg-boss"],
  poweredByHeader: false,
  experimental: {
    // forbidden(): the access-denied page answers HTTP 403.
    authInterrupts: true,
    // Actions carry small forms only: a larger body is refused while it streams, before any action runs. Uploads go
    // through POST /api/imports, which checks the role before reading and enforces IMPORT_MAX_* limits.
    serverActions: { bodySizeLimit: "1mb" },
  },
  typedRoutes: false,
  // proxy.ts sees a client-side navigation's RSC header and `_rsc` parameter, so it can serve stored RSC payloads.
  skipProxyUrlNormalize: true,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
          // Content-Security-Policy (per-request nonce) and HSTS come from proxy.ts.
          { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()" },
        ],
      },
    ];
  },
};

export default nextConfig;
