import type { FastifyRequest } from 'fastify';
import type { AppServices, GraphContext } from '../../subgraphs/shared/graph-context.js';
import { newGraphContext } from '../../subgraphs/shared/graph-context.js';
import type { Sources } from '../sources/sources.js';

export interface GraphContextFactory {
  create(request: FastifyRequest): GraphContext;
}

/** One GraphContext per request: fresh loaders, the shared sources, the caller's base URL. */
export function graphContextFactory(p: {
  sources: Sources;
  app: AppServices;
  publicBaseUrl: string | undefined;
}): GraphContextFactory {
  return {
    create(request) {
      const base = p.publicBaseUrl ?? `${request.protocol}://${request.host}`;
      return newGraphContext({ requestId: String(request.id), sources: p.sources, app: p.app, publicBaseUrl: base });
    },
  };
}
