import { isAscii } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The project root: two folders above test/e2e/. */
const ROOT = join(import.meta.dirname, '..', '..');
const SERVER_BODY = join(ROOT, 'dist', 'bundle', 'server.cjs');

/**
 * In a fresh node (with `nodeArgs`), compiles the bundled server body as main.mjs does, with the server's V8 flags and
 * the code cache the build wrote, and prints what V8 made of the cache and what the body exports.
 */
function compileBodyIn(nodeArgs: string[]): { cacheRejected: boolean; exports: string[] } {
  const built = (file: string) => pathToFileURL(join(ROOT, 'dist', 'src', 'server', file)).href;
  const script = `
    const { applyServerV8Flags } = await import(${JSON.stringify(built('server-v8-flags.js'))});
    applyServerV8Flags();
    const { readFileSync } = await import('node:fs');
    const { codeCachePath, runServerBody } = await import(${JSON.stringify(built('server-body.js'))});
    const file = ${JSON.stringify(SERVER_BODY)};
    const body = runServerBody(file, readFileSync(codeCachePath(file)));
    process.stdout.write(JSON.stringify({ cacheRejected: body.cacheRejected, exports: Object.keys(body.exports) }));`;
  const out = execFileSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', script], { cwd: ROOT });
  return JSON.parse(out.toString()) as { cacheRejected: boolean; exports: string[] };
}

describe('the server body and its code cache (dist/bundle/server.cjs, written by the build)', () => {
  it('a start with the server V8 flags compiles it from the cache the build wrote', () => {
    expect(compileBodyIn([])).toEqual({ cacheRejected: false, exports: ['serve', 'startFromEnv'] });
  });

  it('is ASCII only (the build escapes the rest), so a start reads it as Latin-1: a one-byte string, nothing decoded', () => {
    expect(isAscii(readFileSync(SERVER_BODY))).toBe(true);
  });

  it('under other V8 flags V8 refuses the cache, and the body compiles and runs as usual', () => {
    expect(compileBodyIn(['--max-lazy'])).toEqual({ cacheRejected: true, exports: ['serve', 'startFromEnv'] });
  });
});
