// Used as `node --import ./test/helpers/ts-loader/register.mjs some-entry.ts`: runs TypeScript sources without a build.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
