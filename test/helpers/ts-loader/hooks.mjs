// Node 20 module hooks that run the project's TypeScript sources in a child process, without a build: `./x.js`
// imports fall back to `./x.ts`, and `.ts` files are transpiled with tsconfig.json's decorator options.
// Transpiled output is kept in node_modules/.cache/ts-loader by the source's hash: every server process after the
// first loads the project as fast as from dist/ (transpiling all of it took ~8 s of each start).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CACHE_DIR = fileURLToPath(new URL('../../../node_modules/.cache/ts-loader/', import.meta.url));
/** Part of the cache key: a change of the options below must not reuse older output. */
const OPTIONS_VERSION = 'esnext-es2022-decorators-1';

let typescript;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND' || !specifier.endsWith('.js') || !specifier.startsWith('.')) throw err;
    return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
  }
}

export async function load(url, context, nextLoad) {
  if (!url.endsWith('.ts')) return nextLoad(url, context);
  const source = await readFile(new URL(url), 'utf8');
  const key = createHash('sha256').update(OPTIONS_VERSION).update('\0').update(source).digest('hex');
  const cached = join(CACHE_DIR, `${key}.js`);
  try {
    return { format: 'module', source: readFileSync(cached, 'utf8'), shortCircuit: true };
  } catch {
    // not transpiled yet
  }
  typescript ??= (await import('typescript')).default;
  const { outputText } = typescript.transpileModule(source, {
    fileName: url,
    compilerOptions: {
      module: typescript.ModuleKind.ESNext,
      target: typescript.ScriptTarget.ES2022,
      experimentalDecorators: true,
      emitDecoratorMetadata: true,
      sourceMap: false,
    },
  });
  try {
    mkdirSync(CACHE_DIR, { recursive: true });
    // Written under a temporary name first: processes started side by side may transpile the same file.
    const temporary = `${cached}.${process.pid}.tmp`;
    writeFileSync(temporary, outputText);
    renameSync(temporary, cached);
  } catch {
    // a read-only checkout runs uncached
  }
  return { format: 'module', source: outputText, shortCircuit: true };
}
