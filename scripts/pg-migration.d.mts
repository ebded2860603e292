export function nextMigrationName(sqliteNames: readonly string[], postgresNames: readonly string[]): string;
export function postgresMigrationDrift(serverUrl: string): string;
