import { renderDocsPage } from '../docs/docs-page.js';
import { buildOpenApi } from '../openapi/build-openapi.js';
import type { OpenApiDocument } from '../openapi/openapi-types.js';
import { renderOpenApiYaml } from '../openapi/openapi-yaml.js';
import { TAG_DESCRIPTIONS } from '../openapi/tag-descriptions.js';
import type { DocumentContext, DocumentRow, RouteRow } from '../route-row.js';

const builtDocuments = new WeakMap<DocumentContext, OpenApiDocument>();

/**
 * The OpenAPI document GET /api/openapi.yaml serves, as an object (MCP tools and x402 discovery read it): built once
 * per context, so the YAML rendered later is made from the same object.
 */
export function openApiDocument(ctx: DocumentContext): OpenApiDocument {
  let document = builtDocuments.get(ctx);
  if (document === undefined) {
    const { table, apiSchema, publicBaseUrl, defaultPriceUsd } = ctx;
    document = buildOpenApi({
      table,
      schema: apiSchema,
      serverUrl: publicBaseUrl,
      defaultPriceUsd,
      tagDescriptions: TAG_DESCRIPTIONS,
    });
    builtDocuments.set(ctx, document);
  }
  return document;
}

/**
 * Makes `document` the OpenAPI document of `ctx` (one made ahead, when the bundle was built, from the same table,
 * schema and values): openApiDocument(ctx) and the YAML answer it from then on.
 */
export function adoptOpenApiDocument(ctx: DocumentContext, document: OpenApiDocument): void {
  builtDocuments.set(ctx, document);
}

/** The machine-readable description and the page that renders it, both generated from this table. */
export const documentRoutes: RouteRow[] = [
  {
    kind: 'document',
    id: 'getOpenApiDocument',
    method: 'GET',
    path: '/api/openapi.yaml',
    tag: 'Free',
    summary: 'OpenAPI 3.1 description of every documented route',
    tier: 'free',
    contentType: 'application/yaml',
    render: (ctx) => renderOpenApiYaml(openApiDocument(ctx)),
  },
  {
    kind: 'document',
    id: 'getDocsPage',
    method: 'GET',
    path: '/docs',
    tag: 'Free',
    summary: 'API reference page (Swagger UI over /api/openapi.yaml)',
    tier: 'free',
    contentType: 'text/html; charset=utf-8',
    render: () => renderDocsPage({ specUrl: '/api/openapi.yaml' }),
  },
];

/** A document row and its bytes, rendered on first read and kept: the OpenAPI YAML takes ~0.5 s, no start waits on it. */
export interface ServedDocument {
  row: DocumentRow;
  readonly body: string;
}

/**
 * The table's document rows, each rendered lazily with `ctx`.
 * @example const [openapi] = servedDocuments(ROUTE_TABLE, ctx); reply.send(openapi.body)
 */
export function servedDocuments(table: { rows: readonly RouteRow[] }, ctx: DocumentContext): ServedDocument[] {
  return table.rows
    .filter((row): row is DocumentRow => row.kind === 'document')
    .map((row) => {
      let body: string | undefined;
      return {
        row,
        get body() {
          body ??= row.render(ctx);
          return body;
        },
      };
    });
}
