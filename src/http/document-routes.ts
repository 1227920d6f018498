import type { FastifyInstance } from 'fastify';
import type { ServedDocument } from '../../rest-compat/routes/documents.js';
import type { AccessGate } from '../access/access-gate.js';
import { fastifyPath } from './rest-routes.js';
import { runAdmitted } from './run-admitted.js';
import { htmlPageHeaders } from './security-headers.js';

/**
 * One route per document row (OpenAPI, the docs page, llms.txt …): its bytes, rendered at start, sent after the same
 * admission as any row. An HTML page (the docs) gets a CSP that lets its own inline script run; other documents keep
 * the API's.
 * @example await registerDocumentRoutes(app, { documents, access })
 */
export async function registerDocumentRoutes(
  app: FastifyInstance,
  deps: { documents: readonly ServedDocument[]; access: AccessGate },
): Promise<void> {
  for (const document of deps.documents) {
    const { row } = document;
    const pageHeaders = row.contentType.startsWith('text/html') ? await htmlPageHeaders(document.body) : {};
    app.route({
      method: row.method,
      url: fastifyPath(row.path),
      handler: async (request, reply) => {
        await runAdmitted({
          admit: () => deps.access.admit({ ip: request.ip, headers: request.headers }, row),
          run: async (decision) => {
            reply.headers(decision.headers);
          },
          holdSlot: (release) => reply.raw.once('close', release),
        });
        return reply.headers(pageHeaders).type(row.contentType).send(document.body);
      },
    });
  }
}
