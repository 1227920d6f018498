import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

const root = join(import.meta.dirname, '..', '..');
const QUICKSTART = 'docs/quickstart.md';

/** Each shell block of the quickstart that the text block right after it shows the output of, in order. */
function checkedSteps(markdown: string): { command: string; expected: string }[] {
  const blocks = [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({
    lang: m[1],
    body: m[2]!,
    start: m.index,
    end: m.index + m[0].length,
  }));
  return blocks.flatMap((block, i) => {
    const next = blocks[i + 1];
    const adjacent = next && markdown.slice(block.end, next.start).trim() === '';
    return block.lang === 'sh' && adjacent && next.lang === 'text'
      ? [{ command: block.body, expected: next.body }]
      : [];
  });
}

/** The shown output as a pattern: literal, except `…`, which stands for what differs from run to run. */
const shownAs = (expected: string) =>
  new RegExp(
    `^${expected
      .split('…')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^\\n]*?')}$`,
  );

describe('docs/quickstart.md: every command it shows prints what it says, on the embedded default', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The embedded default as `npm start` runs it (its limits, its SQLite store), on a port of its own.
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs each command in order as a reader in a second terminal would, pasting the export line it is told to paste', async () => {
    const steps = checkedSteps(readFileSync(join(root, QUICKSTART), 'utf8'));
    expect(steps.map((s) => s.command.split('\n')[0])).toEqual([
      'curl -sS http://127.0.0.1:3000/api/ens/resolve/alice.eth; echo',
      "curl -sS http://127.0.0.1:3000/graphql -H 'content-type: application/json' \\",
      'curl -sS http://127.0.0.1:3000/api/usage; echo',
      'npm run demo -- api-key',
      'examples/rest/api-key.sh',
    ]);
    /** What the reader pasted into the shell so far. */
    const pasted: Record<string, string> = {};
    for (const { command, expected } of steps) {
      const { stdout } = await promisify(execFile)(
        'bash',
        ['-c', command.replaceAll('http://127.0.0.1:3000', server.url)],
        {
          cwd: root,
          env: { ...process.env, API_URL: server.url, ...pasted },
        },
      );
      expect(stdout, command).toMatch(shownAs(expected));
      for (const [, name, value] of stdout.matchAll(/^export ([A-Z_]+)=(\S+)$/gm)) pasted[name!] = value!;
    }
    expect(Object.keys(pasted)).toEqual(['API_KEY']);
  });
});
