import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, Script } from 'node:vm';

/** What main.ts runs once no --help was asked: start-server.ts (configuration, port, then serving). */
export type ServerBody = typeof import('./start-server.js');

/**
 * In the bundle, the server body's file beside main.mjs (scripts/bundle-server.mjs defines it): start-server.ts and
 * everything it imports, as one CommonJS script. Undefined where the code runs unbundled (tsc's output).
 */
declare const __SERVER_BODY_FILE__: string | undefined;

/** Where the build writes V8's code cache of the server body `file` (scripts/write-code-cache.mjs). */
export function codeCachePath(file: string): string {
  return `${file}.v8-cache`;
}

export interface CompiledServerBody {
  exports: ServerBody;
  /** The compiled script: the build asks it for its code cache once a start has run its functions. */
  script: Script;
  /** Whether V8 refused the code cache given (another V8 version or other V8 flags): the script compiled as usual. */
  cacheRejected: boolean;
}

/**
 * Compiles and runs the CommonJS server body `file` with V8's code cache `cachedData` when given: V8 then neither
 * parses nor compiles what the cache holds (about half of the server's own start-up CPU is compiling its ~9 MB).
 * Node 20 caches no ES module's code, and a script's cache can be given only through node:vm. The function around it
 * is CommonJS's own, and it keeps the script's line numbers.
 * @example const { exports, script } = runServerBody('/app/dist/bundle/server.cjs', readFileSync(cacheFile))
 */
export function runServerBody(file: string, cachedData: Buffer | undefined): CompiledServerBody {
  const bytes = readFileSync(file);
  // The build escapes every non-ASCII character (scripts/bundle-server.mjs): ASCII read as Latin-1 is the same text,
  // as a one-byte string made without decoding UTF-8 (half the memory, a third of the time of a 9 MB read).
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // Its `import()` of an external package (type-graphql's optional validator) goes through node's own loader.
    importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const module = { exports: {} };
  (script.runInThisContext() as (...args: unknown[]) => void)(
    module.exports,
    createRequire(file),
    module,
    file,
    dirname(file),
  );
  return { exports: module.exports as ServerBody, script, cacheRejected: script.cachedDataRejected === true };
}

/**
 * The server body: in the bundle, the CommonJS script beside main.mjs run with the code cache the build wrote (none,
 * or a refused one, only costs the compilation); unbundled, start-server.js imported as usual.
 * @example const { serve } = await loadServerBody()
 */
export async function loadServerBody(): Promise<ServerBody> {
  if (typeof __SERVER_BODY_FILE__ === 'undefined') return import('./start-server.js');
  const file = fileURLToPath(new URL(__SERVER_BODY_FILE__, import.meta.url));
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(codeCachePath(file));
  } catch {
    // No cache written (a build that skipped it): compiled as usual.
  }
  return runServerBody(file, cachedData).exports;
}
