import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { runDemo } from '../../src/server/demo.js';

/** A fetch that answers GET /api/sources/health with the parts a configuration reports, and records every call. */
function serverOf(env: Record<string, string>) {
  const calls: string[] = [];
  const parts = loadConfig(env).parts;
  const fetchFn = (async (url: string | URL) => {
    calls.push(String(url));
    return new Response(JSON.stringify({ status: 'ok', parts, sources: [] }), {
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof fetch;
  return { calls, fetchFn };
}

describe('npm run demo -- api-key is for the embedded default only', () => {
  it.each([
    [{ ETH_RPC_URL: 'https://eth.example.org' }, 'ethereum'],
    [{ X402_FACILITATOR_URL: 'https://facilitator.example.org' }, 'facilitator'],
    [{ JWT_SECRET: 's'.repeat(40) }, 'jwt-secret'],
  ])(
    'refuses a server whose configuration is live (%o), naming the live part, before signing in',
    async (env, part) => {
      const { calls, fetchFn } = serverOf(env);
      const out: string[] = [];
      const code = await runDemo(['api-key'], {
        env: { API_URL: 'http://127.0.0.1:3999' },
        write: (text) => out.push(text),
        fetch: fetchFn,
      });
      expect(code).toBe(1);
      expect(out.join('')).toMatch(
        new RegExp(`^refused: the server at http://127.0.0.1:3999 is a live configuration \\(.*${part}.* live\\)`),
      );
      expect(out.join('')).toContain('npm run example -- auth/sign-in');
      expect(calls).toEqual(['http://127.0.0.1:3999/api/sources/health']);
    },
  );

  it('says so when no server answers', async () => {
    const out: string[] = [];
    const code = await runDemo(['api-key'], {
      env: { API_URL: 'http://127.0.0.1:1' },
      write: (text) => out.push(text),
    });
    expect(code).toBe(1);
    expect(out.join('')).toMatch(/^no server answers at http:\/\/127.0.0.1:1 \(.*\): start it with npm start\n$/);
  });

  it('is listed by --help', async () => {
    const out: string[] = [];
    expect(await runDemo([], { env: {}, write: (text) => out.push(text) })).toBe(2);
    expect(out.join('')).toMatch(/\n {2}api-key +signs in with Ethereum as alice and prints a demo API key once/);
  });
});
