import 'reflect-metadata';
import { validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompiledOperationRow, compileRouteTable } from '../../rest-compat/compile-routes.js';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { loadConfig } from '../../src/config/config.js';
import { type InProcessGateway, startInProcessGateway } from '../../src/gateway/in-process-gateway.js';
import { maxAliasesRule, maxCostRule, maxDepthRule } from '../../src/gateway/operation-limits.js';
import { readPublishedSchema } from '../../src/gateway/published-schema.js';
import { buildAllSubgraphs } from '../../subgraphs/index.js';

describe('the /graphql limits at their defaults let a caller run what any REST row runs', () => {
  let gateway: InProcessGateway;
  let operations: CompiledOperationRow[];
  beforeAll(async () => {
    const subgraphs = await buildAllSubgraphs();
    gateway = await startInProcessGateway({ subgraphs, ...readPublishedSchema() });
    operations = [...compileRouteTable(ROUTE_TABLE, gateway.apiSchema).values()];
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('every row operation is within the default depth, alias and cost limits', () => {
    const { maxDepth, maxAliases, maxCost } = loadConfig({}).graphql;
    const rules = [maxDepthRule(maxDepth), maxAliasesRule(maxAliases), maxCostRule(maxCost)];
    expect(operations.length).toBeGreaterThan(50);
    for (const { row, prepared } of operations) {
      expect(
        validate(gateway.apiSchema, prepared.document, rules).map((e) => e.message),
        row.path,
      ).toEqual([]);
    }
  });

  it('the dearest of them, the full profile, costs 123.875 (the records asked by key and coin counted whether asked or not): ten in one operation are over the default 1000', () => {
    const costOf = (max: number) =>
      operations
        .filter(({ row }) => row.path === '/api/profile/full/{name}')
        .flatMap(({ prepared }) => validate(gateway.apiSchema, prepared.document, [maxCostRule(max)]));
    expect(costOf(100)).toEqual([expect.objectContaining({ message: expect.stringMatching(/found 123\.875\.$/) })]);
    expect(costOf(124)).toEqual([]);
  });
});
