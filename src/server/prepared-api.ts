import { type CompiledOperationRow, compileRouteTable } from '../../rest-compat/compile-routes.js';
import type { RouteTable } from '../../rest-compat/route-row.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import {
  adoptOpenApiDocument,
  openApiDocument,
  type ServedDocument,
  servedDocuments,
} from '../../rest-compat/routes/documents.js';
import { buildAllSubgraphs } from '../../subgraphs/index.js';
import { type InProcessGateway, startInProcessGateway } from '../gateway/in-process-gateway.js';
import { readPublishedSchema } from '../gateway/published-schema.js';
import { type AgentSurface, agentSurface } from '../http/mcp/agent-surface.js';
import { builtAgentSchemas, builtApiDocument, builtOpenApiDocument, builtRowOperations } from './built-artifacts.js';

/** What a server serves, derived from the code and two config values only: the same for every instance of it. */
export interface PreparedApi {
  gateway: InProcessGateway;
  operations: CompiledOperationRow[];
  documents: ServedDocument[];
  agents: AgentSurface;
}

export interface PrepareApiParameters {
  table: RouteTable;
  /** PUBLIC_BASE_URL, for the OpenAPI `servers` entry. */
  publicBaseUrl: string | undefined;
  /** X402_DEFAULT_PRICE_USD, for rows that set no price. */
  defaultPriceUsd: string;
}

const prepared = new WeakMap<RouteTable, Map<string, Promise<PreparedApi>>>();

/**
 * Builds the subgraphs, the in-process gateway over the checked-in schema, the compiled routes, the documents and the
 * agent surface, once per route table and config in a process: a second server in the same process (the tests start
 * dozens) reuses them. None of it holds per-server state; each request's context carries the server's services.
 * @example const { gateway, operations, documents, agents } = await prepareApi({ table, publicBaseUrl, defaultPriceUsd })
 */
export function prepareApi(p: PrepareApiParameters): Promise<PreparedApi> {
  let byConfig = prepared.get(p.table);
  if (!byConfig) {
    byConfig = new Map();
    prepared.set(p.table, byConfig);
  }
  const key = JSON.stringify([p.publicBaseUrl ?? null, p.defaultPriceUsd]);
  let building = byConfig.get(key);
  if (!building) {
    building = build(p);
    // A failed build is not kept: the next server tries again.
    building.catch(() => byConfig.delete(key));
    byConfig.set(key, building);
  }
  return building;
}

async function build({ table, publicBaseUrl, defaultPriceUsd }: PrepareApiParameters): Promise<PreparedApi> {
  const subgraphs = await buildAllSubgraphs();
  const { apiSdlSha256, ...published } = readPublishedSchema(undefined, builtApiDocument);
  const gateway = await startInProcessGateway({ subgraphs, ...published });
  // The default table's rows were generated and validated against this schema when the bundle was built.
  const checked = table === ROUTE_TABLE ? builtRowOperations(apiSdlSha256) : undefined;
  const operations = [...compileRouteTable(table, gateway.apiSchema, checked).values()];
  const documentContext = { table, apiSchema: gateway.apiSchema, publicBaseUrl, defaultPriceUsd };
  const builtDocument =
    table === ROUTE_TABLE ? builtOpenApiDocument({ apiSdlSha256, publicBaseUrl, defaultPriceUsd }) : undefined;
  if (builtDocument) adoptOpenApiDocument(documentContext, builtDocument);
  const documents = servedDocuments(table, documentContext);
  const agents = agentSurface({
    table,
    operations,
    documents,
    document: openApiDocument(documentContext),
    supergraphSdl: gateway.supergraphSdl,
    defaultPriceUsd,
    // Read from the document the build made: so are its schemas and discovery, when that document is the one served.
    built: builtDocument ? builtAgentSchemas() : undefined,
  });
  return { gateway, operations, documents, agents };
}
