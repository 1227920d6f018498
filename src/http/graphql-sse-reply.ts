import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHandler, type HandlerOptions } from 'graphql-sse';
import { EVENT_POSITION, type LiveResult } from './live-operations.js';

/** What one SSE request carries through graphql-sse: the positions of its results, in the order they are written. */
export interface SseRequestContext {
  positions: (string | undefined)[];
}

/** The SSE `id:` field of a position: a line of its own, before the message's `event:` (WHATWG SSE). */
function withId(message: string, position: string | undefined): string {
  return position === undefined ? message : `id: ${position}\n${message}`;
}

/**
 * graphql-sse's handler on a Fastify reply (as graphql-sse/lib/use/fastify writes it), except that every `next`
 * message of an event carries the event's position as its `id:`: a browser's EventSource sends it back as
 * `Last-Event-ID` when it reconnects, and any client may. graphql-sse's `onNext` sees each result just before its
 * message is queued, so the positions are queued in the same order as the messages they belong to.
 * @example const handle = sseReplyHandler({ onSubscribe }); await handle(request, reply)
 */
export function sseReplyHandler(
  options: Pick<HandlerOptions<FastifyRequest, SseRequestContext>, 'onSubscribe'>,
): (request: FastifyRequest, reply: FastifyReply) => Promise<void> {
  const handler = createHandler<FastifyRequest, SseRequestContext>({
    ...options,
    onNext(_ctx, req, result) {
      req.context.positions.push((result as LiveResult)[EVENT_POSITION]);
    },
  });
  return async (request, reply) => {
    const positions: (string | undefined)[] = [];
    const [body, init] = await handler({
      method: request.method,
      url: request.url,
      headers: {
        get(key) {
          const header = reply.getHeader(key) ?? request.headers[key];
          return header === undefined ? null : Array.isArray(header) ? header.join('\n') : String(header);
        },
      },
      body: () =>
        new Promise((resolve, reject) => {
          if (request.body) return resolve(request.body as Record<string, unknown>);
          let text = '';
          request.raw.on('data', (chunk: Buffer) => {
            text += chunk;
          });
          request.raw.once('error', reject);
          request.raw.once('end', () => resolve(text));
        }),
      raw: request,
      context: { positions },
    });
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(reply.getHeaders())) {
      headers[key] = Array.isArray(value) ? value.join('\n') : String(value);
    }
    reply.raw.writeHead(init.status, init.statusText, { ...headers, ...init.headers });
    if (!body || typeof body === 'string') {
      await new Promise<void>((resolve) => reply.raw.end(body ?? undefined, () => resolve()));
      return;
    }
    const stop = () => void body.return(undefined);
    reply.raw.once('close', stop);
    for await (const message of body) {
      if (!reply.raw.writable) break;
      const written = message.startsWith('event: next') ? withId(message, positions.shift()) : message;
      const failed = await new Promise<Error | null | undefined>((resolve) => reply.raw.write(written, resolve));
      if (failed) break;
    }
    reply.raw.off('close', stop);
    await new Promise<void>((resolve) => reply.raw.end(() => resolve()));
  };
}
