import type { FastifyRequest } from 'fastify';
import type { CallerIdentity } from '../../subgraphs/shared/account-services.js';
import type { AppServices, GraphContext } from '../../subgraphs/shared/graph-context.js';
import { newGraphContext } from '../../subgraphs/shared/graph-context.js';
import { presentedPayment } from '../access/x402-presented-payment.js';
import type { Sources } from '../sources/sources.js';

/** What a context is made from: a fastify request, or a WebSocket's upgrade request read alike. */
export type ContextRequest = Pick<FastifyRequest, 'id' | 'ip' | 'headers' | 'protocol' | 'host' | 'url'> &
  Partial<Pick<FastifyRequest, 'askedAt'>>;

export interface GraphContextFactory {
  create(request: ContextRequest): GraphContext;
}

/** One GraphContext per request: fresh loaders, the shared sources, the caller's base URL, when it arrived. */
export function graphContextFactory(p: {
  sources: Sources;
  app: AppServices;
  publicBaseUrl: string | undefined;
  /** The access gate's identification (once per request, shared with the gate). */
  identify?: (req: { ip: string; headers: FastifyRequest['headers'] }) => Promise<CallerIdentity>;
}): GraphContextFactory {
  return {
    create(request) {
      const base = p.publicBaseUrl ?? `${request.protocol}://${request.host}`;
      const identify = p.identify;
      const caller = identify ? () => identify({ ip: request.ip, headers: request.headers }) : undefined;
      return newGraphContext({
        requestId: String(request.id),
        sources: p.sources,
        app: p.app,
        publicBaseUrl: base,
        caller,
        payment: presentedPayment(request.headers),
        requestUrl: `${base}${request.url}`,
        askedAt: request.askedAt,
      });
    },
  };
}
