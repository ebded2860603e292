// Points server modules at the run's throwaway database before any test imports them.
import { inject } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");
process.env.APP_ENV = "local";
