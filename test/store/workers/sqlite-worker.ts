/**
 * A separate process working on a SQLite store file, for the crash and multi-process tests.
 *   credit-loop <file> <keyId> <runId>   credits 1 per iteration with reference `<runId>:<i>`, printing each applied reference, forever
 *   debit <file> <keyId> <count>         waits for a line on stdin, then debits 1 credit `count` times and prints how many succeeded
 */
import { openSqliteStore } from '../../../src/store/sqlite-store.js';

const [mode, file, keyId, arg] = process.argv.slice(2);
const store = openSqliteStore({ file });

if (mode === 'credit-loop') {
  process.stdout.write('ready\n');
  for (let i = 0; ; i++) {
    const reference = `${arg}:${i}`;
    const result = await store.addCredits({ keyId, amount: 1, reference, now: Date.now() });
    // stdout to a pipe is synchronous on Linux: a printed reference was acknowledged before any kill.
    if (result.applied) process.stdout.write(`${reference}\n`);
  }
} else if (mode === 'debit') {
  process.stdout.write('ready\n');
  await new Promise((go) => process.stdin.once('data', go));
  let ok = 0;
  for (let i = 0; i < Number(arg); i++) {
    if ((await store.debitCredit({ keyId, now: Date.now() })).ok) ok++;
  }
  await store.close();
  process.stdout.write(`${JSON.stringify({ ok })}\n`);
  process.exit(0);
} else {
  throw new Error(`unknown mode ${mode}`);
}
