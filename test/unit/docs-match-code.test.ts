import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTE_TABLE } from '../../rest-compat/route-table.js';
import { CONFIG_VARIABLES } from '../../src/config/config.js';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const envExample = readFileSync(join(root, '.env.example'), 'utf8');

describe('the README and .env.example say what the code does', () => {
  it('the README names every route of the table', () => {
    const missing = ROUTE_TABLE.rows
      .filter((row) => !readme.includes(`\`${row.path}\``))
      .map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('every environment variable the config reads is in .env.example and in the README', () => {
    expect(CONFIG_VARIABLES.filter((name) => !new RegExp(`^${name}=`, 'm').test(envExample))).toEqual([]);
    expect(CONFIG_VARIABLES.filter((name) => !readme.includes(`\`${name}\``))).toEqual([]);
  });
});
