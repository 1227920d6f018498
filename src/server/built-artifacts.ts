import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { type DocumentNode, introspectionFromSchema, printSchema } from 'graphql';
import { compileRouteTable } from '../../rest-compat/compile-routes.js';
import type { OpenApiDocument } from '../../rest-compat/openapi/openapi-types.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { openApiDocument, servedDocuments } from '../../rest-compat/routes/documents.js';
import { rowOperation } from '../../rest-compat/row-operation.js';
import { loadConfig } from '../config/config.js';
import { projectRoot } from '../config/project-root.js';
import { parseApiSdl, readPublishedSchema } from '../gateway/published-schema.js';
import { agentSchemasOf, agentSurface } from '../http/mcp/agent-surface.js';
import type { BuiltAgentSchemas } from '../http/mcp/agent-tools.js';

/**
 * What scripts/bundle-server.mjs computes when it builds the bundle, because it depends on the code and the
 * checked-in schema only: schema/api.graphql parsed, each operation row's GraphQL text, generated from the route table
 * and validated against that schema (named by its hash), and the OpenAPI document of the default configuration (PUBLIC_BASE_URL and
 * X402_DEFAULT_PRICE_USD unset; another configuration builds its own at start). Undefined where the code runs
 * unbundled (the tests, tsc's output): everything is then computed at start, as before.
 */
export interface BuiltArtifacts {
  /** schema/api.graphql parsed (parseApiSdl), as JSON: JSON.parse takes a fraction of GraphQL's parser's time. */
  apiDocument: { apiSdlSha256: string; documentJson: string };
  rowOperations: { apiSdlSha256: string; byRowId: Record<string, string> };
  openApi: { apiSdlSha256: string; defaultPriceUsd: string; documentJson: string };
  /** The agent surface's schemas and bazaar discovery (agentSchemasOf), read from that same OpenAPI document. */
  agentSchemasJson: string;
}

declare const __BUILT_ARTIFACTS__: BuiltArtifacts | undefined;

/** Named once: the bundler writes the defined value at each place its name appears. */
const BUILT: BuiltArtifacts | undefined = typeof __BUILT_ARTIFACTS__ === 'undefined' ? undefined : __BUILT_ARTIFACTS__;

/** Run by scripts/bundle-server.mjs: validates every operation row (throws as a start would) and returns the texts. */
export function buildArtifacts(): BuiltArtifacts {
  const { apiSchema, apiSdlSha256 } = readPublishedSchema();
  const documentJson = JSON.stringify(parseApiSdl(readFileSync(join(projectRoot(), 'schema', 'api.graphql'), 'utf8')));
  // JSON drops the parse's undefined fields: only a document whose schema is the same without them is built ahead.
  const fromJson = readPublishedSchema(undefined, () => JSON.parse(documentJson) as DocumentNode).apiSchema;
  if (
    printSchema(fromJson) !== printSchema(apiSchema) ||
    !isDeepStrictEqual(introspectionFromSchema(fromJson), introspectionFromSchema(apiSchema))
  ) {
    throw new Error('api.graphql parsed and read back from JSON is another schema: it cannot be built ahead');
  }
  const compiled = compileRouteTable(ROUTE_TABLE, apiSchema);
  const byRowId: Record<string, string> = {};
  for (const { row } of compiled.values()) byRowId[row.id] = rowOperation(row, apiSchema);
  const { defaultPriceUsd } = loadConfig({}).x402;
  const documentContext = { table: ROUTE_TABLE, apiSchema, publicBaseUrl: undefined, defaultPriceUsd };
  const document = openApiDocument(documentContext);
  const openApiJson = JSON.stringify(document);
  // Only a document that survives JSON unchanged may be served from its JSON (the YAML is rendered from it).
  if (!isDeepStrictEqual(JSON.parse(openApiJson), document)) {
    throw new Error('the OpenAPI document does not survive JSON.stringify: it cannot be built ahead');
  }
  const agentSchemas = agentSchemasOf(
    agentSurface({
      table: ROUTE_TABLE,
      operations: [...compiled.values()],
      documents: servedDocuments(ROUTE_TABLE, documentContext),
      document,
      supergraphSdl: '',
      defaultPriceUsd,
    }),
  );
  const agentSchemasJson = JSON.stringify(agentSchemas);
  // JSON leaves out a tool's `outputSchema: undefined` (a 200 body that is no object), which is only ever read by
  // its truthiness: anything else lost on the way refuses the build.
  if (!isDeepStrictEqual(JSON.parse(agentSchemasJson), withoutUndefinedFields(agentSchemas))) {
    throw new Error('the agent surface schemas do not survive JSON.stringify: they cannot be built ahead');
  }
  return {
    apiDocument: { apiSdlSha256, documentJson },
    rowOperations: { apiSdlSha256, byRowId },
    openApi: { apiSdlSha256, defaultPriceUsd, documentJson: openApiJson },
    agentSchemasJson,
  };
}

/** `value` with every object field whose value is undefined left out, as JSON leaves it out; all else as it is. */
function withoutUndefinedFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefinedFields);
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(
    Object.entries(value).flatMap(([key, inner]) =>
      inner === undefined ? [] : [[key, withoutUndefinedFields(inner)]],
    ),
  );
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
  if (BUILT === undefined) return undefined;
  const built = BUILT.openApi;
  if (p.publicBaseUrl !== undefined || p.defaultPriceUsd !== built.defaultPriceUsd) return undefined;
  if (p.apiSdlSha256 !== built.apiSdlSha256) return undefined;
  return JSON.parse(built.documentJson) as OpenApiDocument;
}

/**
 * The agent surface's schemas and bazaar discovery as the build read them from the default configuration's OpenAPI
 * document: given only where that document is served as the build made it (builtOpenApiDocument gave it).
 * @example agentSurface({ …, built: builtDocument ? builtAgentSchemas() : undefined })
 */
export function builtAgentSchemas(): BuiltAgentSchemas | undefined {
  if (BUILT === undefined) return undefined;
  return JSON.parse(BUILT.agentSchemasJson) as BuiltAgentSchemas;
}

/**
 * The default route table's operation texts as the build checked them, when this is the bundle and the schema read at
 * start is the one they were checked against; otherwise undefined (compile them).
 * @example compileRouteTable(table, apiSchema, table === ROUTE_TABLE ? builtRowOperations(apiSdlSha256) : undefined)
 */
export function builtRowOperations(apiSdlSha256: string): ReadonlyMap<string, string> | undefined {
  if (BUILT === undefined) return undefined;
  const built = BUILT.rowOperations;
  if (built.apiSdlSha256 !== apiSdlSha256) return undefined;
  return new Map(Object.entries(built.byRowId));
}

/**
 * schema/api.graphql as the build parsed it, when this is the bundle and the file read at start (named by its hash)
 * is the one it parsed; otherwise undefined (parse it).
 * @example readPublishedSchema(undefined, builtApiDocument)
 */
export function builtApiDocument(apiSdlSha256: string): DocumentNode | undefined {
  if (BUILT === undefined || BUILT.apiDocument.apiSdlSha256 !== apiSdlSha256) return undefined;
  return JSON.parse(BUILT.apiDocument.documentJson) as DocumentNode;
}
