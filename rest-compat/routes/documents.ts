import { renderDocsPage } from '../../src/http/docs-page.js';
import { buildOpenApi } from '../openapi/build-openapi.js';
import { renderOpenApiYaml } from '../openapi/openapi-yaml.js';
import type { RouteRow } from '../route-row.js';

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
    render: ({ table, apiSchema, publicBaseUrl, defaultPriceUsd }) =>
      renderOpenApiYaml(buildOpenApi({ table, schema: apiSchema, serverUrl: publicBaseUrl, defaultPriceUsd })),
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
