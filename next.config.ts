import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native SQLite driver and the Prisma runtime stay outside the server bundle.
  serverExternalPackages: ["better-sqlite3", "@prisma/adapter-better-sqlite3"],
  poweredByHeader: false,
  experimental: {
    // forbidden(): the access-denied page answers HTTP 403.
    authInterrupts: true,
    // Uploads on the Import page travel in a server action; IMPORT_MAX_FILE_MB enforces the per-file limit.
    serverActions: { bodySizeLimit: "512mb" },
  },
  typedRoutes: false,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [
          { key: "X-Content-Type-Options", value: "nosniff" },
          { key: "Referrer-Policy", value: "same-origin" },
          { key: "X-Frame-Options", value: "DENY" },
        ],
      },
    ];
  },
};

export default nextConfig;
