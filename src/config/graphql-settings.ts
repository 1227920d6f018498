import { z } from 'zod';
import { type ConfigArea, type SettingsOf, withDefault } from './config-variable.js';

/** The /graphql limits; the defaults are GraphQL Armor's (escape.tech/graphql-armor). */
export const GRAPHQL_AREA = {
  title: 'GraphQL',
  about: "The /graphql limits; the defaults are GraphQL Armor's (escape.tech/graphql-armor)",
  variables: {
    GRAPHQL_MAX_DEPTH: withDefault('6', z.coerce.number().int().min(1).max(100), 'deepest selection `/graphql` runs'),
    GRAPHQL_MAX_ALIASES: withDefault('15', z.coerce.number().int().min(0).max(1000), 'aliases one operation may use'),
    GRAPHQL_MAX_TOKENS: withDefault(
      '1000',
      z.coerce.number().int().min(10).max(100_000),
      'tokens one document may hold',
    ),
    GRAPHQL_MAX_COST: withDefault(
      '1000',
      z.coerce.number().int().min(1).max(1_000_000),
      "cost limit, GraphQL Armor's formula (object 2, scalar 1, × 1.5 per level); about 9 × `/api/profile/full`'s operation (109)",
    ),
  },
} as const satisfies ConfigArea;

export interface GraphqlConfig {
  graphql: { maxDepth: number; maxAliases: number; maxTokens: number; maxCost: number };
}

export function graphqlConfig(e: SettingsOf<typeof GRAPHQL_AREA.variables>): GraphqlConfig {
  return {
    graphql: {
      maxDepth: e.GRAPHQL_MAX_DEPTH,
      maxAliases: e.GRAPHQL_MAX_ALIASES,
      maxTokens: e.GRAPHQL_MAX_TOKENS,
      maxCost: e.GRAPHQL_MAX_COST,
    },
  };
}
