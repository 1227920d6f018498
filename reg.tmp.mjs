import { register } from 'node:module'; register('./hk.tmp.mjs', import.meta.url);
