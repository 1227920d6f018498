import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { buildSchemaArtifacts } from './schema-artifacts.js';

/** `npm run schema:write`: regenerates schema/ from the code (a test fails while they differ). */
const dir = resolve(process.argv[2] ?? 'schema');
const files = await buildSchemaArtifacts();
mkdirSync(dir, { recursive: true });
for (const name of readdirSync(dir)) if (!files.has(name)) rmSync(join(dir, name));
for (const [name, content] of files) writeFileSync(join(dir, name), content);
process.stdout.write(`wrote ${[...files.keys()].join(', ')} to ${dir}\n`);
