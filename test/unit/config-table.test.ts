import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { CONFIG_AREAS, CONFIG_VARIABLES, SECRET_VARIABLES } from '../../src/config/config-areas.js';
import type { ConfigVariable } from '../../src/config/config-variable.js';
import { envExampleText } from '../../src/server/config-docs.js';

const root = join(import.meta.dirname, '..', '..');
const declared = CONFIG_AREAS.flatMap((area) =>
  Object.entries(area.variables as Record<string, ConfigVariable<unknown>>),
);

describe('each configuration variable is declared once, in its area', () => {
  it('no name is declared in two areas, and loadConfig reads exactly the declared ones', () => {
    const names = declared.map(([name]) => name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect([...CONFIG_VARIABLES].sort()).toEqual([...names].sort());
  });

  it("every literal default is valid by its own variable's rule, and every variable says what it does", () => {
    for (const [name, variable] of declared) {
      expect(variable.meaning.length, name).toBeGreaterThan(10);
      if (variable.default !== undefined) expect(variable.schema.safeParse(variable.default).success, name).toBe(true);
    }
    // Writing every default out loud changes nothing.
    const written = Object.fromEntries(
      declared.flatMap(([name, v]) => (v.default === undefined ? [] : [[name, v.default]])),
    );
    const { parts: _a, ...implicit } = loadConfig({});
    const { parts: _b, ...explicit } = loadConfig(written);
    expect(explicit).toEqual(implicit);
  });

  it('the secrets the logger scrubs are the variables declared secret: keys, tokens, URLs that may carry a key', () => {
    expect(SECRET_VARIABLES).toEqual(
      expect.arrayContaining(['JWT_SECRET', 'CCIP_SIGNER_KEY', 'ETH_RPC_URL', 'REDIS_URL']),
    );
    expect(SECRET_VARIABLES).not.toContain('X402_RECEIVER');
  });

  it('.env.example is what `npm run docs:write` makes of the declarations: every variable, with its default', () => {
    const text = readFileSync(join(root, '.env.example'), 'utf8');
    expect(text, 'run npm run docs:write').toBe(envExampleText());
    const lines = text.split('\n');
    for (const [name, variable] of declared) expect(lines).toContain(`${name}=${variable.default ?? ''}`);
  });
});
