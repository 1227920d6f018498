import 'reflect-metadata';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { projectRoot } from '../config/project-root.js';
import { exitWithHelpIfAsked } from './cli-help.js';
import { renderDocBlocks } from './docs-blocks.js';

exitWithHelpIfAsked(
  process.argv.slice(2),
  `usage: npm run docs:write

Fills in the generated parts of README.md and docs/*.md: the tables made from the route table (routes, MCP tools)
and the examples of examples/ each guide includes. A test fails while a document differs from what this writes.`,
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
process.stdout.write(changed.length > 0 ? `wrote ${changed.join(', ')}\n` : 'the documents are current\n');
