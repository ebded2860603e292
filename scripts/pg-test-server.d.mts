export interface PostgresServer {
  url: string;
  port: number;
  dir: string;
  stop(): void;
}

export function findPostgresBin(env?: NodeJS.ProcessEnv): string | null;
export function postgresUnavailableReason(env?: NodeJS.ProcessEnv): string | null;
export function startPostgres(options?: { port?: number }): Promise<PostgresServer>;
