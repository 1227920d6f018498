import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keepMalformedJson, MalformedJsonBody, registerJsonBodyParser } from '../../src/http/json-body.js';

/** Bodies a client or an attacker sends: plain ones, poisoning ones (plain and \u-escaped), broken ones. */
const BODIES = [
  '{"query":"{ __typename }"}',
  '{"query":"query Q($n: String!) { ensProfile(name: $n) { name } }","variables":{"n":"alice.eth"}}',
  '{"query":"{ a }","extensions":{"persistedQuery":{"version":1}}}',
  '[1,2,3]',
  '"text"',
  '42',
  'null',
  '{"__proto__":{"admin":true}}',
  '{"a":{"__proto__":{"admin":true}}}',
  '{"\\u005f_proto__":{"admin":true}}',
  '{"\\u005F\\u005Fproto\\u005f\\u005f" :{"admin":true}}',
  '{"constructor":{"prototype":{"admin":true}}}',
  '{"\\u0063onstructor":{"prototype":{"admin":true}}}',
  '{"constructor":"a plain member"}',
  '{"note":"__proto__ and constructor as values only"}',
  '{"note":"an escaped \\u00e9 letter"}',
  '\uFEFF{"query":"{ __typename }"}',
  '{"query":',
  '{"a":1}x',
  ' ',
];

/** What a route sees of the body: the parsed value, the kept parse error, or the status of the refusal. */
async function seen(app: FastifyInstance, url: string, body: string): Promise<unknown> {
  const res = await app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload: body });
  return { status: res.statusCode, body: res.json() };
}

function appWith(install: (app: FastifyInstance) => void, defaults: boolean): FastifyInstance {
  const app = Fastify();
  if (!defaults) install(app);
  else {
    // Fastify's own parser, as registerJsonBodyParser and keepMalformedJson used it before their fast path.
    const parse = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text, done) => {
      if (text === '') return done(null, undefined);
      (parse as (r: unknown, t: string, d: typeof done) => void)(request, text as string, done);
    });
  }
  app.post('/body', async (request) => ({
    kept: request.body instanceof MalformedJsonBody ? request.body.reason : null,
    value: request.body instanceof MalformedJsonBody ? null : (request.body ?? null),
    poisoned: ({} as Record<string, unknown>).admin ?? null,
  }));
  return app;
}

describe('JSON request bodies', () => {
  let ours: FastifyInstance;
  let fastifys: FastifyInstance;
  let kept: FastifyInstance;
  beforeAll(async () => {
    ours = appWith(registerJsonBodyParser, false);
    fastifys = appWith(registerJsonBodyParser, true);
    kept = appWith((app) => keepMalformedJson(app), false);
    await Promise.all([ours.ready(), fastifys.ready(), kept.ready()]);
  });
  afterAll(async () => {
    await Promise.all([ours.close(), fastifys.close(), kept.close()]);
  });

  it("are read exactly as fastify's own parser reads them: the same value, the same refusal, for every body", async () => {
    for (const body of BODIES) {
      expect(await seen(ours, '/body', body), body).toEqual(await seen(fastifys, '/body', body));
    }
  });

  it('refuse a __proto__ or constructor.prototype key however it is spelled, and poison nothing', async () => {
    for (const body of BODIES.filter((b) => /proto|\\u00(5f|5F|63)/.test(b) && b.includes('admin'))) {
      const answer = (await seen(ours, '/body', body)) as { status: number };
      expect(answer.status, body).toBe(400);
      const routeSees = (await seen(kept, '/body', body)) as { status: number; body: { kept: string | null } };
      expect(routeSees.status, body).toBe(200);
      expect(routeSees.body.kept, body).toBe("Body is not valid JSON but content-type is set to 'application/json'");
    }
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
  });

  it('reach a route that keeps malformed JSON as the parsed value, or as the reason it did not parse', async () => {
    expect(await seen(kept, '/body', '{"query":"{ __typename }"}')).toEqual({
      status: 200,
      body: { kept: null, value: { query: '{ __typename }' }, poisoned: null },
    });
    const broken = (await seen(kept, '/body', '{"query":')) as { body: { kept: string | null } };
    expect(broken.body.kept).toBe("Body is not valid JSON but content-type is set to 'application/json'");
  });
});
