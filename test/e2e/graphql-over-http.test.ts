import { type AuditResult, serverAudits } from 'graphql-http';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedTestServer, type TestServer } from '../helpers/test-server.js';

/** `ok`, or the audit's reason: a failing audit names itself in the assertion message. */
function outcome(result: AuditResult): string {
  return result.status === 'ok' ? 'ok' : `${result.status}: ${result.reason}`;
}

describe("GraphQL over HTTP: graphql-http's server audits pass against /graphql", () => {
  let server: TestServer;
  const audits = serverAudits({ url: () => `${server.url}/graphql` });
  const must = audits.filter((a) => a.name.startsWith('MUST'));
  const should = audits.filter((a) => a.name.startsWith('SHOULD'));

  beforeAll(async () => {
    server = await sharedTestServer();
  });

  it('the suite is the one the spec requires (every MUST and SHOULD of graphql-http 1.23)', () => {
    expect(must.length).toBeGreaterThanOrEqual(13);
    expect(should.length).toBeGreaterThanOrEqual(23);
  });

  it.each(must.map((a) => [a.name, a] as const))('%s', async (_name, audit) => {
    const result = await audit.fn();
    expect(outcome(result), audit.name).toBe('ok');
  });

  it.each(should.map((a) => [a.name, a] as const))('%s', async (_name, audit) => {
    const result = await audit.fn();
    expect(outcome(result), audit.name).toBe('ok');
  });
});
