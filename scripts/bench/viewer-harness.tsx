// Browser entry of the viewer benchmark: renders the real WorkflowCanvas for the laid-out view in
// `window.__BENCH_VIEW__`, marking when rendering starts; the canvas marks when it has measured and painted.
import { createRoot } from "react-dom/client";
import type { LaidOutView } from "../../lib/viewer/layout";
import { WorkflowCanvas } from "../../components/viewer/workflow-canvas";

declare global {
  interface Window {
    __BENCH_VIEW__: LaidOutView;
  }
}

const container = document.getElementById("root") as HTMLElement;
performance.mark("bench:render-start");
createRoot(container).render(<WorkflowCanvas view={window.__BENCH_VIEW__} height={800} label="Benchmark graph" />);
