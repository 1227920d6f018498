#!/usr/bin/env node
// Writes V8's code cache of the server body (dist/bundle/server.cjs, the argument) beside it, for main.mjs to compile
// it from (src/server/server-body.ts): run by scripts/bundle-server.mjs once the body is bundled. The cache is taken
// after one start of the body, in this process of its own with the server's V8 flags (V8 refuses a cache made under
// other flags), on the default configuration with a fresh DATA_DIR: it then holds every function a start runs, not only
// the script's top level. The server is then stopped as SIGTERM stops it (its chains with it). Exits 1 if it fails.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const built = (path) => import(pathToFileURL(join(projectRoot, 'dist', 'src', ...path.split('/'))).href);

const { applyServerV8Flags } = await built('server/server-v8-flags.js');
applyServerV8Flags();
const { codeCachePath, runServerBody } = await built('server/server-body.js');
const { loadConfig } = await built('config/config.js');

const file = process.argv[2];
if (file === undefined) throw new Error('usage: write-code-cache.mjs <dist/bundle/server.cjs>');
const dataDir = mkdtempSync(join(tmpdir(), 'code-cache-start-'));
process.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
const body = runServerBody(file, undefined);
// Only the defaults: no variable of this shell (REDIS_URL, a live RPC …) makes the build talk to anything.
await body.exports.serve(loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' }));
writeFileSync(codeCachePath(file), body.script.createCachedData());
process.kill(process.pid, 'SIGTERM');
