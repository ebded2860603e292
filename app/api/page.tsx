import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/page-header";
import { cardStyles, tableStyles } from "@/components/ui/styles";
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
        <div className={tableStyles.wrapper}>
          <table className={tableStyles.table} data-testid="api-routes">
            <caption className="sr-only">Routes of the API, with who may call them</caption>
            <thead>
              <tr>
                <th scope="col" className={tableStyles.th}>Method and path</th>
                <th scope="col" className={tableStyles.th}>Who</th>
                <th scope="col" className={tableStyles.th}>Body</th>
                <th scope="col" className={tableStyles.th}>Answer</th>
                <th scope="col" className={tableStyles.th}>What it does</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {routes.map(([name, route]) => (
                <tr key={name}>
                  <th scope="row" className={`${tableStyles.td} text-left font-mono text-xs font-normal`}>
                    <a href={`#${name}`} className="text-brand-600 underline dark:text-brand-500">
                      {route.method} {route.path}
                    </a>
                  </th>
                  <td className={`${tableStyles.td} text-xs`}>{route.who}</td>
                  <td className={`${tableStyles.td} text-xs`}>{route.request ? <a href={`#schema-${route.request}`} className="underline">{route.request}</a> : "—"}</td>
                  <td className={`${tableStyles.td} text-xs`}>
                    {route.success.status}{" "}
                    {route.success.schema ? <a href={`#schema-${route.success.schema}`} className="underline">{route.success.schema}</a> : (route.success.contentType ?? "application/json")}
                  </td>
                  <td className="px-3 py-2 text-xs">{route.summary}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section aria-labelledby="api-errors">
        <h2 id="api-errors" className="mb-2 text-lg font-medium">Errors</h2>
        <p className="mb-2 text-sm text-slate-600 dark:text-slate-400">
          Every error answers <code className="font-mono text-xs">{'{"error": {"code": "…", "message": "…"}}'}</code> with one of these codes.
        </p>
        <div className={tableStyles.wrapper}>
          <table className={tableStyles.table}>
            <caption className="sr-only">Error codes and their HTTP statuses</caption>
            <thead>
              <tr>
                <th scope="col" className={tableStyles.th}>Status</th>
                <th scope="col" className={tableStyles.th}>Code</th>
                <th scope="col" className={tableStyles.th}>When</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
              {(Object.entries(API_ERRORS) as [ApiErrorCode, (typeof API_ERRORS)[ApiErrorCode]][]).map(([code, error]) => (
                <tr key={code}>
                  <td className={tableStyles.tdNumber}>{error.status}</td>
                  <td className={`${tableStyles.td} font-mono text-xs`}>{code}</td>
                  <td className="px-3 py-2 text-xs">{error.description}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
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
