import type { FastifyInstance, FastifyRequest } from 'fastify';

type JsonParser = ReturnType<FastifyInstance['getDefaultJsonParser']>;

/** The media type of JSON request bodies. */
const JSON_TYPE = 'application/json';

/**
 * Fastify's own JSON parser (prototype poisoning refused), except that an empty body is no body: clients send
 * `content-type: application/json` on calls that carry none (DELETE a key or a webhook, SIWE refresh and logout), and
 * such a call reaches its route, which refuses a missing body only where it takes one ("body must be a JSON object").
 * @example registerJsonBodyParser(app) // DELETE /api/user/keys/{id} with content-type: application/json and no body → the route runs
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(JSON_TYPE);
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    (parse as JsonParser)(request, body as string, done);
  });
}

/** A JSON body that did not parse, kept for a route that answers it itself (MCP's JSON-RPC parse error). */
export class MalformedJsonBody {
  constructor(readonly reason: string) {}
}

/**
 * For the routes of `scope` only: a body that is not JSON (or empty) arrives as a {@link MalformedJsonBody} instead of
 * a 400 in the envelope, so the route can answer in its own protocol.
 * @example keepMalformedJson(mcpScope); if (request.body instanceof MalformedJsonBody) …
 */
export function keepMalformedJson(scope: FastifyInstance): void {
  const parse = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser(JSON_TYPE);
  scope.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (request: FastifyRequest, body, done) => {
    (parse as JsonParser)(request, body as string, (err, value) =>
      done(null, err ? new MalformedJsonBody(err.message) : value),
    );
  });
}
