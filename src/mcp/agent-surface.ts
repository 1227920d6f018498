import { parse as parseYaml } from 'yaml';
import type { CompiledOperationRow } from '../../rest-compat/compile-routes.js';
import type { OpenApiDocument } from '../../rest-compat/openapi/openapi-types.js';
import type { DocumentRow } from '../../rest-compat/route-row.js';
import { type AgentTool, agentTools } from './agent-tools.js';
import type { AgentResource } from './mcp-server.js';

/** Where the server serves its OpenAPI document (a document row of the table). */
const OPENAPI_PATH = '/api/openapi.yaml';

/** What agents get: the tools and the documents they come from. */
export interface AgentSurface {
  /** The OpenAPI document as served (parsed once): tools, their schemas and discovery metadata come from it. */
  document: OpenApiDocument;
  tools: AgentTool[];
  resources: AgentResource[];
}

/**
 * The agent tools and resources, from the exact OpenAPI bytes GET /api/openapi.yaml serves and the supergraph SDL
 * the gateway runs: what an agent reads is what the server answers.
 * @example const surface = agentSurface({ operations, documents, supergraphSdl, defaultPriceUsd: '0.01' })
 */
export function agentSurface(p: {
  operations: readonly CompiledOperationRow[];
  documents: readonly { row: DocumentRow; body: string }[];
  supergraphSdl: string;
  defaultPriceUsd: string;
}): AgentSurface {
  const openapi = p.documents.find((d) => d.row.path === OPENAPI_PATH);
  if (!openapi) throw new Error(`the route table serves no ${OPENAPI_PATH}: agent tools are built from it`);
  const document = parseYaml(openapi.body) as OpenApiDocument;
  const tools = agentTools({ operations: p.operations, document, defaultPriceUsd: p.defaultPriceUsd });
  const resources: AgentResource[] = [
    {
      uri: 'api://openapi.yaml',
      name: 'openapi',
      title: 'OpenAPI 3.1 document',
      description: `Every REST operation of this API (GET ${OPENAPI_PATH}); each tool is one of its operations`,
      mimeType: 'application/yaml',
      text: openapi.body,
    },
    {
      uri: 'api://supergraph.graphql',
      name: 'supergraph',
      title: 'GraphQL supergraph SDL',
      description: 'The federated GraphQL schema /graphql serves; every tool runs one operation on it',
      mimeType: 'application/graphql',
      text: p.supergraphSdl,
    },
  ];
  return { document, tools, resources };
}
