import 'reflect-metadata';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../config/project-root.js';
import { exitWithHelpIfAsked } from './cli-help.js';
import { envExampleText } from './config-docs.js';
import { renderDocBlocks } from './docs-blocks.js';

exitWithHelpIfAsked(
  process.argv.slice(2),
  `usage: npm run docs:write

Fills in the generated parts of README.md and docs/*.md: the tables made from the route table (routes, MCP tools)
and from the configuration's declarations (variables, the going-live checklist), and the examples of examples/ each
guide includes; writes .env.example from the same declarations. A test fails while a file differs from what this
writes.`,
);

/** README.md and every document under docs/. */
const root = projectRoot();
const documents = [
  join(root, 'README.md'),
  ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => join(root, 'docs', file)),
];
const changed: string[] = [];
for (const file of documents) {
  const text = readFileSync(file, 'utf8');
  const rendered = renderDocBlocks(text);
  if (rendered !== text) {
    writeFileSync(file, rendered);
    changed.push(relative(root, file));
  }
}
const envExample = join(root, '.env.example');
if (readFileSync(envExample, 'utf8') !== envExampleText()) {
  writeFileSync(envExample, envExampleText());
  changed.push('.env.example');
}
process.stdout.write(changed.length > 0 ? `wrote ${changed.join(', ')}\n` : 'the documents are current\n');
