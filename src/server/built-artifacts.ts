import { isDeepStrictEqual } from 'node:util';
import { compileRouteTable } from '../../rest-compat/compile-routes.js';
import type { OpenApiDocument } from '../../rest-compat/openapi/openapi-types.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { openApiDocument } from '../../rest-compat/routes/documents.js';
import { rowOperation } from '../../rest-compat/row-operation.js';
import { loadConfig } from '../config/config.js';
import { readPublishedSchema } from '../gateway/published-schema.js';

/**
 * What scripts/bundle-server.mjs computes when it builds the bundle, because it depends on the code and the
 * checked-in schema only: each operation row's GraphQL text, generated from the route table and validated against
 * schema/api.graphql (named by its hash), and the OpenAPI document of the default configuration (PUBLIC_BASE_URL and
 * X402_DEFAULT_PRICE_USD unset; another configuration builds its own at start). Undefined where the code runs
 * unbundled (the tests, tsc's output): everything is then computed at start, as before.
 */
export interface BuiltArtifacts {
  rowOperations: { apiSdlSha256: string; byRowId: Record<string, string> };
  openApi: { apiSdlSha256: string; defaultPriceUsd: string; documentJson: string };
}

declare const __BUILT_ARTIFACTS__: BuiltArtifacts | undefined;

/** Run by scripts/bundle-server.mjs: validates every operation row (throws as a start would) and returns the texts. */
export function buildArtifacts(): BuiltArtifacts {
  const { apiSchema, apiSdlSha256 } = readPublishedSchema();
  const compiled = compileRouteTable(ROUTE_TABLE, apiSchema);
  const byRowId: Record<string, string> = {};
  for (const { row } of compiled.values()) byRowId[row.id] = rowOperation(row, apiSchema);
  const { defaultPriceUsd } = loadConfig({}).x402;
  const document = openApiDocument({ table: ROUTE_TABLE, apiSchema, publicBaseUrl: undefined, defaultPriceUsd });
  const documentJson = JSON.stringify(document);
  // Only a document that survives JSON unchanged may be served from its JSON (the YAML is rendered from it).
  if (!isDeepStrictEqual(JSON.parse(documentJson), document)) {
    throw new Error('the OpenAPI document does not survive JSON.stringify: it cannot be built ahead');
  }
  return {
    rowOperations: { apiSdlSha256, byRowId },
    openApi: { apiSdlSha256, defaultPriceUsd, documentJson },
  };
}

/**
 * The default configuration's OpenAPI document as the build made it, when this is the bundle, the configuration is
 * the default one in what the document depends on, and the schema is the one it was made from; otherwise undefined.
 */
export function builtOpenApiDocument(p: {
  apiSdlSha256: string;
  publicBaseUrl: string | undefined;
  defaultPriceUsd: string;
}): OpenApiDocument | undefined {
  if (typeof __BUILT_ARTIFACTS__ === 'undefined') return undefined;
  const built = __BUILT_ARTIFACTS__.openApi;
  if (p.publicBaseUrl !== undefined || p.defaultPriceUsd !== built.defaultPriceUsd) return undefined;
  if (p.apiSdlSha256 !== built.apiSdlSha256) return undefined;
  return JSON.parse(built.documentJson) as OpenApiDocument;
}

/**
 * The default route table's operation texts as the build checked them, when this is the bundle and the schema read at
 * start is the one they were checked against; otherwise undefined (compile them).
 * @example compileRouteTable(table, apiSchema, table === ROUTE_TABLE ? builtRowOperations(apiSdlSha256) : undefined)
 */
export function builtRowOperations(apiSdlSha256: string): ReadonlyMap<string, string> | undefined {
  if (typeof __BUILT_ARTIFACTS__ === 'undefined') return undefined;
  const built = __BUILT_ARTIFACTS__.rowOperations;
  if (built.apiSdlSha256 !== apiSdlSha256) return undefined;
  return new Map(Object.entries(built.byRowId));
}
