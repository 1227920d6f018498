import 'reflect-metadata';
import { beforeAll, describe, expect, it } from 'vitest';
import { compileRouteTable } from '../../rest-compat/compile-routes.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { openApiDocument, servedDocuments } from '../../rest-compat/routes/documents.js';
import { loadConfig } from '../../src/config/config.js';
import { readPublishedSchema } from '../../src/gateway/published-schema.js';
import { type AgentSurface, agentSurface } from '../../src/http/mcp/agent-surface.js';
import type { BuiltAgentSchemas } from '../../src/http/mcp/agent-tools.js';
import { type BuiltArtifacts, buildArtifacts } from '../../src/server/built-artifacts.js';

/** What agents and payers are sent of a surface: each tool as tools/list lists it, its schemas and every discovery. */
function sent(surface: AgentSurface): string {
  return JSON.stringify({
    tools: surface.tools.map((t) => ({
      definition: t.definition,
      schemas: t.schemas,
      discovery: t.accessRoute.discovery,
    })),
    http: [...surface.httpDiscovery].map(([row, discovery]) => [row.id, discovery]),
  });
}

describe('the agent surface the bundle reads from the build (src/server/built-artifacts.ts)', () => {
  let artifacts: BuiltArtifacts;
  beforeAll(() => {
    artifacts = buildArtifacts();
  });

  it('gives every tool, its schemas and every bazaar discovery exactly as computing them at start does', () => {
    const { apiSchema, supergraphSdl } = readPublishedSchema();
    const { defaultPriceUsd } = loadConfig({}).x402;
    const context = { table: ROUTE_TABLE, apiSchema, publicBaseUrl: undefined, defaultPriceUsd };
    const inputs = {
      table: ROUTE_TABLE,
      operations: [...compileRouteTable(ROUTE_TABLE, apiSchema).values()],
      documents: servedDocuments(ROUTE_TABLE, context),
      document: openApiDocument(context),
      supergraphSdl,
      defaultPriceUsd,
    };
    const computed = agentSurface(inputs);
    const stored = JSON.parse(artifacts.agentSchemasJson) as BuiltAgentSchemas;
    const built = agentSurface({ ...inputs, built: stored });
    // The stored objects are the ones used, not computed again.
    const tool = built.tools[0]!;
    expect(tool.schemas).toBe(stored.schemas[tool.compiled.row.id]);
    expect(computed.tools.length).toBeGreaterThan(10);
    expect(computed.httpDiscovery.size).toBeGreaterThan(10);
    expect(sent(built)).toBe(sent(computed));
  });
});
