// Used as `node --import ./test/e2e/workers/register-server-loader.mjs src/server/main.ts`.
import { register } from 'node:module';

register('./server-loader-hooks.mjs', import.meta.url);
