// The response page's grade card: grades the stored verdicts with the shipped Chat2Workflow rubric (pure and fast)
// and says whether a stored grade exists. Kept apart from the page so the page only places it.
import { GradeCard } from "@/components/grading/grade-card";
import { EmptyState } from "@/components/ui/empty-state";
import { database } from "@/lib/server/db";
import { findStoredGrade, gradeStoredResponse, loadDefaultRubric } from "@/lib/server/grading";
import type { SessionUser } from "@/lib/server/session";

export async function GradeSection({ user, responseId }: { user: SessionUser | null; responseId: string }) {
  const loaded = await loadDefaultRubric();
  if (!loaded.ok) {
    return <EmptyState title="No grade">The rubric could not be read: {loaded.issues.join("; ")}</EmptyState>;
  }
  const { rubric, fingerprint } = loaded.value;
  const db = database();
  const graded = await gradeStoredResponse(db, user, responseId, loaded.value);
  if (graded === null) return null;
  if (!graded.ok) return <EmptyState title="No grade">{graded.issues.join("; ")}</EmptyState>;
  const stored = await findStoredGrade(db, user, responseId, rubric.rubric_id, rubric.version);
  return (
    <GradeCard
      result={graded.value.result}
      rubric={{ id: rubric.rubric_id, version: rubric.version, title: rubric.title }}
      judges={graded.value.judges}
      stored={stored ? { gradedAt: stored.gradedAt, sameRubricFile: stored.rubricFingerprint === fingerprint } : null}
    />
  );
}
