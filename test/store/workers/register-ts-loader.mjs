// Used as `node --import ./test/store/workers/register-ts-loader.mjs worker.ts`.
import { register } from 'node:module';

register('./ts-loader-hooks.mjs', import.meta.url);
