// Starts an embedded chain and prints its URL; the test then kills this process with SIGKILL.
import { startLocalChain } from '../../../src/embedded/chain/local-chain.js';

const chain = await startLocalChain();
process.stdout.write(`${chain.rpcUrl}\n`);
setInterval(() => {}, 1000);
