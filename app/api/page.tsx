import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { DataTable } from "@/components/ui/data-table";
import { cardStyles } from "@/components/ui/styles";
import { API_ERRORS, type ApiErrorCode } from "@/lib/api/errors";
import { API_ROUTES, type ApiRouteSpec } from "@/lib/server/api/contract";
import { openApiDocument } from "@/lib/server/api/openapi";

export const metadata: Metadata = { title: "HTTP API" };

const routes = Object.entries(API_ROUTES as Record<string, ApiRouteSpec>);

/** The API reference: the OpenAPI document rendered as tables and schemas (the document is served as JSON beside it). */
export default function ApiPage() {
  const document = openApiDocument() as { components: { schemas: Record<string, unknown> } };
  return (
    <div className="space-y-8">
      <PageHeader
        title="HTTP API"
        description={
          <>
            Start evaluations from scripts and CI, follow them, and fetch their records, leaderboard rows and run bundles. Every request except the
            document itself carries <code className="font-mono text-xs">Authorization: Bearer &lt;token&gt;</code>; make a token on{" "}
            <Link href="/settings/tokens" className="text-brand-600 underline dark:text-brand-500">Access tokens</Link> or with{" "}
            <code className="font-mono text-xs">npm run -s user -- token create --email … --name …</code>. The machine-readable document:{" "}
            <a href="/api/v1/openapi.json" className="text-brand-600 underline dark:text-brand-500">/api/v1/openapi.json</a> (OpenAPI 3.1).
          </>
        }
      />
      <section aria-labelledby="api-routes">
        <h2 id="api-routes" className="mb-2 text-lg font-medium">Routes</h2>
        <DataTable
          caption="Routes of the API, with who may call them"
          testId="api-routes"
          headers={["Method and path", "Who", "Body", "Answer", "What it does"]}
          rowHeader
          wrap={[4]}
          columnClasses={{ 0: "text-left font-mono text-xs font-normal", 1: "text-xs", 2: "text-xs", 3: "text-xs", 4: "text-xs" }}
          rows={routes.map(([name, route]) => ({
            key: name,
            cells: [
              <a key="route" href={`#${name}`} className="text-brand-600 underline dark:text-brand-500">
                {route.method} {route.path}
              </a>,
              route.who,
              route.request ? <a key="request" href={`#schema-${route.request}`} className="underline">{route.request}</a> : "—",
              <>
                {route.success.status}{" "}
                {route.success.schema ? <a href={`#schema-${route.success.schema}`} className="underline">{route.success.schema}</a> : (route.success.contentType ?? "application/json")}
              </>,
              route.summary,
            ],
          }))}
        />
      </section>
      <section aria-labelledby="api-errors">
        <h2 id="api-errors" className="mb-2 text-lg font-medium">Errors</h2>
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          Every error answers <code className="font-mono text-xs">{'{"error": {"code": "…", "message": "…"}}'}</code> with one of these codes.
        </p>
        <DataTable
          caption="Error codes and their HTTP statuses"
          headers={["Status", "Code", "When"]}
          numeric={[0]}
          wrap={[2]}
          columnClasses={{ 1: "font-mono text-xs", 2: "text-xs" }}
          rows={(Object.entries(API_ERRORS) as [ApiErrorCode, (typeof API_ERRORS)[ApiErrorCode]][]).map(([code, error]) => ({ key: code, cells: [error.status, code, error.description] }))}
        />
      </section>
      <section aria-labelledby="api-operations" className="space-y-4">
        <h2 id="api-operations" className="text-lg font-medium">Each route</h2>
        {routes.map(([name, route]) => (
          <article key={name} id={name} className={cardStyles} aria-labelledby={`${name}-title`}>
            <h3 id={`${name}-title`} className="font-mono text-sm font-semibold">
              {route.method} {route.path}
            </h3>
            <p className="mt-1 text-sm">{route.summary}</p>
            <dl className="mt-2 grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[max-content_1fr]">
              <dt className="font-medium">Who</dt>
              <dd>{route.who}</dd>
              {route.query?.map((query) => (
                <div key={query.name} className="contents">
                  <dt className="font-medium">?{query.name}=</dt>
                  <dd>{query.description}</dd>
                </div>
              ))}
              <dt className="font-medium">Errors</dt>
              <dd>{route.errors.length ? route.errors.map((code) => `${API_ERRORS[code].status} ${code}`).join(", ") : "none"}</dd>
            </dl>
          </article>
        ))}
      </section>
      <section aria-labelledby="api-schemas" className="space-y-2">
        <h2 id="api-schemas" className="text-lg font-medium">Schemas</h2>
        {Object.entries(document.components.schemas).map(([name, schema]) => (
          <details key={name} id={`schema-${name}`} className={cardStyles}>
            <summary className="cursor-pointer font-mono text-sm">{name}</summary>
            <pre className="mt-2 max-h-96 overflow-auto whitespace-pre text-xs" tabIndex={0} aria-label={`JSON Schema of ${name}`}>
              {JSON.stringify(schema, null, 2)}
            </pre>
          </details>
        ))}
      </section>
    </div>
  );
}
