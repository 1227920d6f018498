import { JsonRpcProvider } from 'ethers';
import { type Example, embeddedRpcUrl, json } from '../example.js';

/**
 * ethers v6 with no ENS settings against the embedded chain (chain id 1, ENS at its mainnet addresses) answers as
 * the API does: forward names, an offchain subname and a Base name (CCIP-Read through this server), text records,
 * primary names.
 * Run: npm run example -- ens/resolve-with-ethers
 */
export default async function resolveWithEthers({ api, print }: Example): Promise<void> {
  const provider = new JsonRpcProvider(await embeddedRpcUrl(api));
  try {
    for (const name of ['alice.eth', 'pay.alice.eth', 'bob.eth', 'dave.offchain.eth', 'demo.base.eth']) {
      const rest = await json<{ address: string }>(await fetch(`${api}/api/ens/resolve/${name}`));
      print(`${name} → ${await provider.resolveName(name)} (REST: ${rest.address})`);
    }
    const resolver = await provider.getResolver('alice.eth');
    print(`alice.eth com.twitter: ${await resolver?.getText('com.twitter')}`);
    const alice = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
    print(`${alice} ← ${await provider.lookupAddress(alice)}`);
  } finally {
    provider.destroy();
  }
}
