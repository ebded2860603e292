import { PageLoading } from "@/components/ui/loading";

export default function Loading() {
  return <PageLoading label="Loading the comparison…" />;
}
