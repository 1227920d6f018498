import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import type { BuiltSubgraph } from '../../subgraphs/shared/build-subgraph.js';

export class CompositionError extends Error {
  override name = 'CompositionError';
}

/**
 * Composes the subgraphs into one supergraph SDL, as Apollo Router would from schema/.
 * @example const sdl = composeSupergraph(await buildAllSubgraphs())
 */
export function composeSupergraph(subgraphs: readonly BuiltSubgraph[]): string {
  const result = composeServices(
    subgraphs.map((s) => ({ name: s.name, typeDefs: parse(s.sdl), url: `local://${s.name}` })),
  );
  if (result.errors) {
    throw new CompositionError(`supergraph composition failed:\n${result.errors.map((e) => e.message).join('\n')}`);
  }
  return result.supergraphSdl;
}
