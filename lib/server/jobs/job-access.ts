import "server-only";
// Who may see and steer a job (imports included): the user who started it, or an admin. One rule for the Jobs pages,
// their API, the run page's job list, the job controls and the import progress page.
import type { SessionUser } from "../session";

/** The jobs `actor` may see, as a Prisma `where` fragment on Job (admins: all). */
export function jobsVisibleTo(actor: SessionUser): { createdBy?: string } {
  return actor.role === "admin" ? {} : { createdBy: actor.id };
}

/** Whether `actor` may see and control this job. */
export function mayAccessJob(actor: SessionUser, job: { createdBy: string | null }): boolean {
  return actor.role === "admin" || (job.createdBy !== null && job.createdBy === actor.id);
}
