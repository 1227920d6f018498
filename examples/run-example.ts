import { readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Example } from './example.js';

// `npm run example -- <name>`: runs examples/<name>.ts (built into dist/examples by npm ci) against API_URL.
const here = dirname(fileURLToPath(import.meta.url));
/** `.js` once built into dist/examples; `.ts` when run from source. */
const extension = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
const names = readdirSync(here, { recursive: true, encoding: 'utf8' })
  // typed-client/ is compiled against the types it generates, with its own tsconfig: not run from here.
  .filter((file) => file.endsWith(extension) && file.includes('/') && !file.startsWith('typed-client/'))
  .map((file) => file.slice(0, -extension.length))
  .sort();
const usage = `usage: npm run example -- <name>

Runs one TypeScript example against the API at API_URL (default http://127.0.0.1:3000, where npm start serves):
${names.map((name) => `  ${name}`).join('\n')}
The shell and .graphql examples run as they are, e.g. examples/rest/resolve-name.sh. Guides: docs/README.md
`;
if (process.argv.includes('--help') || process.argv.includes('-h')) {
  process.stdout.write(usage);
  process.exit(0);
}
const name = process.argv[2]?.replace(/^examples\//, '').replace(/\.(ts|js)$/, '');
if (name === undefined || !names.includes(name)) {
  process.stderr.write(`${name === undefined ? '' : `no example ${name}\n\n`}${usage}`);
  process.exit(2);
}
const example = (await import(pathToFileURL(join(here, `${name}${extension}`)).href)) as {
  default: (context: Example) => Promise<void>;
};
const api = (process.env.API_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
try {
  await example.default({ api, print: (line) => process.stdout.write(`${line}\n`) });
} catch (err) {
  process.stderr.write(`${relative(process.cwd(), join(here, name))}: ${(err as Error).message}\n`);
  process.exitCode = 1;
}
