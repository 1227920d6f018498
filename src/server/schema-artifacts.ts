import 'reflect-metadata';
import { printSchema } from 'graphql';
import { renderOpenApiYaml } from '../../rest-compat/openapi/openapi-yaml.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { openApiDocument } from '../../rest-compat/routes/documents.js';
import { buildAllSubgraphs } from '../../subgraphs/index.js';
import { loadConfig } from '../config/config.js';
import { apiSchemaOfSupergraph } from '../gateway/api-schema.js';
import { composeSupergraph } from '../gateway/compose-supergraph.js';
import { startInProcessGateway } from '../gateway/in-process-gateway.js';

/**
 * The published contracts, as checked in under schema/: each subgraph's SDL, the composed supergraph
 * (what Apollo Router composes from), the API schema clients see (what the server executes, and what GraphQL code
 * generators read) and the OpenAPI document of the default configuration.
 */
export async function buildSchemaArtifacts(): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  const subgraphs = await buildAllSubgraphs();
  for (const s of subgraphs) files.set(`${s.name}.graphql`, s.sdl);
  const supergraphSdl = composeSupergraph(subgraphs);
  files.set('supergraph.graphql', `${supergraphSdl.trimEnd()}\n`);
  const apiSchema = await apiSchemaOfSupergraph(supergraphSdl);
  files.set('api.graphql', `${printSchema(apiSchema).trimEnd()}\n`);
  const gateway = await startInProcessGateway({ subgraphs, supergraphSdl, apiSchema });
  try {
    const defaults = loadConfig({});
    // The document the server serves (GET /api/openapi.yaml) with the default configuration: one builder for both.
    const doc = openApiDocument({
      table: ROUTE_TABLE,
      apiSchema: gateway.apiSchema,
      publicBaseUrl: undefined,
      defaultPriceUsd: defaults.x402.defaultPriceUsd,
    });
    files.set('openapi.yaml', renderOpenApiYaml(doc));
  } finally {
    await gateway.stop();
  }
  return files;
}
