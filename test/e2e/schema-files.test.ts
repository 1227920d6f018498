import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type DocumentNode,
  introspectionFromSchema,
  Kind,
  type ObjectTypeDefinitionNode,
  parse,
  printSchema,
} from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApi } from '../../rest-compat/openapi/build-openapi.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { loadConfig } from '../../src/config/config.js';
import { apiSchemaOfSupergraph } from '../../src/gateway/api-schema.js';
import { composeSupergraph } from '../../src/gateway/compose-supergraph.js';
import { startInProcessGateway } from '../../src/gateway/in-process-gateway.js';
import { readPublishedSchema } from '../../src/gateway/published-schema.js';
import { buildArtifacts } from '../../src/server/built-artifacts.js';
import { buildSchemaArtifacts } from '../../src/server/schema-artifacts.js';
import { buildAllSubgraphs } from '../../subgraphs/index.js';

const schemaDir = join(import.meta.dirname, '..', '..', 'schema');

describe('schema/ holds the published contracts exactly as the code produces them', () => {
  let produced: Map<string, string>;
  beforeAll(async () => {
    produced = await buildSchemaArtifacts();
  });

  it('each subgraph SDL, the supergraph, the API schema and the OpenAPI document match (run `npm run schema:write` after a change)', () => {
    const checkedIn = new Map(readdirSync(schemaDir).map((f) => [f, readFileSync(join(schemaDir, f), 'utf8')]));
    expect([...checkedIn.keys()].sort()).toEqual([...produced.keys()].sort());
    for (const [name, content] of produced) expect(checkedIn.get(name), name).toBe(content);
  });

  it('the supergraph composes every subgraph, so Apollo Router can serve it', () => {
    const supergraph = produced.get('supergraph.graphql')!;
    const subgraphs = [...produced.keys()].filter(
      (f) => f.endsWith('.graphql') && f !== 'supergraph.graphql' && f !== 'api.graphql',
    );
    expect(subgraphs.length).toBeGreaterThan(0);
    for (const file of subgraphs) {
      expect(supergraph).toMatch(new RegExp(`@join__graph\\(name: "${file.replace('.graphql', '')}"`));
    }
  });

  it('the subgraphs’ subscription fields compose: the supergraph’s Subscription has each, joined to its own subgraph', () => {
    const subscriptionOf = (sdl: string) =>
      parse(sdl).definitions.find(
        (d): d is ObjectTypeDefinitionNode => d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'Subscription',
      );
    const joined = new Map(
      (subscriptionOf(produced.get('supergraph.graphql')!)?.fields ?? []).map((field) => {
        const join = field.directives?.find((d) => d.name.value === 'join__field');
        const graph = join?.arguments?.find((a) => a.name.value === 'graph')?.value;
        return [field.name.value, graph?.kind === Kind.ENUM ? graph.value.toLowerCase() : undefined];
      }),
    );
    const declared = [...produced].flatMap(([file, sdl]) =>
      file === 'supergraph.graphql' || file === 'api.graphql' || !file.endsWith('.graphql')
        ? []
        : (subscriptionOf(sdl)?.fields ?? []).map((f) => [f.name.value, file.replace('.graphql', '')] as const),
    );
    expect(declared.map(([field]) => field).sort()).toEqual(
      ['ensEvents', 'farcasterCasts', 'priceAlerts', 'walletTransfers'].sort(),
    );
    for (const [field, subgraph] of declared) expect(joined.get(field), field).toBe(subgraph);
    expect(joined.size).toBe(declared.length);
  });

  it('the server, which reads the checked-in files instead of composing, executes the same schema as a fresh composition', async () => {
    const subgraphs = await buildAllSubgraphs();
    const supergraphSdl = composeSupergraph(subgraphs);
    const fresh = await startInProcessGateway({
      subgraphs,
      supergraphSdl,
      apiSchema: await apiSchemaOfSupergraph(supergraphSdl),
    });
    const published = await startInProcessGateway({ subgraphs, ...readPublishedSchema() });
    expect(published.supergraphSdl.trimEnd()).toBe(fresh.supergraphSdl.trimEnd());
    expect(introspectionFromSchema(published.apiSchema)).toEqual(introspectionFromSchema(fresh.apiSchema));
    const defaultPriceUsd = loadConfig({}).x402.defaultPriceUsd;
    expect(buildOpenApi({ table: ROUTE_TABLE, schema: published.apiSchema, defaultPriceUsd })).toEqual(
      buildOpenApi({ table: ROUTE_TABLE, schema: fresh.apiSchema, defaultPriceUsd }),
    );
  });

  it('the bundle reads api.graphql as the build parsed it (JSON) only under its hash, and executes the same schema from it', async () => {
    const { apiDocument } = buildArtifacts();
    const asked: string[] = [];
    const fromBuild = readPublishedSchema(undefined, (apiSdlSha256) => {
      asked.push(apiSdlSha256);
      return apiSdlSha256 === apiDocument.apiSdlSha256
        ? (JSON.parse(apiDocument.documentJson) as DocumentNode)
        : undefined;
    });
    const parsedNow = readPublishedSchema();
    expect(asked).toEqual([parsedNow.apiSdlSha256]);
    expect(`${printSchema(fromBuild.apiSchema)}\n`).toBe(readFileSync(join(schemaDir, 'api.graphql'), 'utf8'));
    const subgraphs = await buildAllSubgraphs();
    const built = await startInProcessGateway({ subgraphs, ...fromBuild });
    const now = await startInProcessGateway({ subgraphs, ...parsedNow });
    expect(introspectionFromSchema(built.apiSchema)).toEqual(introspectionFromSchema(now.apiSchema));
  });
});
