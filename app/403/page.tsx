import { forbidden } from "next/navigation";

// Where access checks send a visitor whose role does not allow a page: renders app/forbidden.tsx with status 403.
export default function ForbiddenPage() {
  forbidden();
}
