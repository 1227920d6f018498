import type { FastifyInstance, FastifyRequest } from 'fastify';

type JsonParser = ReturnType<FastifyInstance['getDefaultJsonParser']>;
type ParseDone = (err: Error | null, body?: unknown) => void;

/** The media type of JSON request bodies. */
const JSON_TYPE = 'application/json';

/**
 * Whether `text` cannot hold a `__proto__` or `constructor` key: neither word in it, and no `\u` escape that could
 * spell one. Such a text is parsed by JSON.parse alone, as secure-json-parse itself does once its two regular
 * expressions find no such key (they look only for those words, plainly or with `\u` escapes).
 */
const cannotPoison = (text: string): boolean =>
  !text.includes('\\u') && !text.includes('__proto__') && !text.includes('constructor');

/**
 * Fastify's own JSON parser (`parse`: prototype poisoning refused, its errors), with the common case first: a text
 * that cannot poison a prototype ({@link cannotPoison}) and parses is JSON.parse's value, without the two
 * whole-text regular expression scans (~130 ns of ~450 for a `{ __typename }` body). Anything else, a text that does
 * not parse included, goes to `parse`, which answers it as before; with `kept`, its error becomes the body `kept` makes.
 */
function secureJsonParser(parse: JsonParser, kept?: (err: Error) => unknown) {
  return (request: FastifyRequest, text: string, done: ParseDone): void => {
    let value: unknown;
    let parsed = false;
    if (cannotPoison(text)) {
      try {
        value = JSON.parse(text);
        parsed = true;
      } catch {
        // Answered by `parse` below, with fastify's error.
      }
    }
    if (parsed) done(null, value);
    else if (kept === undefined) parse(request, text, done);
    else parse(request, text, (err, body) => done(null, err ? kept(err) : body));
  };
}

/**
 * Fastify's own JSON parser (prototype poisoning refused), except that an empty body is no body: clients send
 * `content-type: application/json` on calls that carry none (DELETE a key or a webhook, SIWE refresh and logout), and
 * such a call reaches its route, which refuses a missing body only where it takes one ("body must be a JSON object").
 * @example registerJsonBodyParser(app) // DELETE /api/user/keys/{id} with content-type: application/json and no body → the route runs
 */
export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = secureJsonParser(app.getDefaultJsonParser('error', 'error'));
  app.removeContentTypeParser(JSON_TYPE);
  app.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    parse(request, body as string, done);
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
  const parse = secureJsonParser(
    scope.getDefaultJsonParser('error', 'error'),
    (err) => new MalformedJsonBody(err.message),
  );
  scope.removeContentTypeParser(JSON_TYPE);
  scope.addContentTypeParser(JSON_TYPE, { parseAs: 'string' }, (request: FastifyRequest, body, done) =>
    parse(request, body as string, done),
  );
}
