export interface PostgresServer {
  url: string;
  port: number;
  dir: string;
  stop(): void;
}

export function findPostgresBin(env?: Record<string, string | undefined>, debianRoot?: string): string | null;
export function postgresUnavailableReason(env?: Record<string, string | undefined>, debianRoot?: string): string | null;
export function startPostgres(options?: { port?: number }): Promise<PostgresServer>;
