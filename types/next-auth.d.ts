import type { Role } from "@/lib/auth/roles";

declare module "next-auth" {
  interface Session {
    user: {
      id: string;
      email: string;
      name: string | null;
      role: Role;
      sessionVersion: number;
    };
  }

  interface User {
    id: string;
    email: string;
    name: string | null;
    role: Role;
    sessionVersion: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    userId?: string;
    role?: Role;
    sessionVersion?: number;
  }
}
