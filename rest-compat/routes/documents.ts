import { renderDocsPage } from '../docs/docs-page.js';
import { buildOpenApi } from '../openapi/build-openapi.js';
import type { OpenApiDocument } from '../openapi/openapi-types.js';
import { renderOpenApiYaml } from '../openapi/openapi-yaml.js';
import { TAG_DESCRIPTIONS } from '../openapi/tag-descriptions.js';
import type { DocumentContext, RouteRow } from '../route-row.js';

/** The OpenAPI document GET /api/openapi.yaml serves, as an object (MCP tools and x402 discovery read it). */
export function openApiDocument({
  table,
  apiSchema,
  publicBaseUrl,
  defaultPriceUsd,
}: DocumentContext): OpenApiDocument {
  return buildOpenApi({
    table,
    schema: apiSchema,
    serverUrl: publicBaseUrl,
    defaultPriceUsd,
    tagDescriptions: TAG_DESCRIPTIONS,
  });
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
