import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSchemaArtifacts } from '../../src/server/schema-artifacts.js';

const schemaDir = join(import.meta.dirname, '..', '..', 'schema');

describe('schema/ holds the published contracts exactly as the code produces them', () => {
  it('each subgraph SDL, the supergraph and the OpenAPI document match (run `npm run schema:write` after a change)', async () => {
    const produced = await buildSchemaArtifacts();
    const checkedIn = new Map(readdirSync(schemaDir).map((f) => [f, readFileSync(join(schemaDir, f), 'utf8')]));
    expect([...checkedIn.keys()].sort()).toEqual([...produced.keys()].sort());
    for (const [name, content] of produced) expect(checkedIn.get(name), name).toBe(content);
  });

  it('the supergraph composes every subgraph, so Apollo Router can serve it', async () => {
    const produced = await buildSchemaArtifacts();
    const supergraph = produced.get('supergraph.graphql')!;
    const subgraphs = [...produced.keys()].filter((f) => f.endsWith('.graphql') && f !== 'supergraph.graphql');
    expect(subgraphs.length).toBeGreaterThan(0);
    for (const file of subgraphs) {
      expect(supergraph).toMatch(new RegExp(`@join__graph\\(name: "${file.replace('.graphql', '')}"`));
    }
  });
});
