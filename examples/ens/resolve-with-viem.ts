import { createPublicClient, http } from 'viem';
import { mainnet } from 'viem/chains';
import { type Example, embeddedRpcUrl, json } from '../example.js';

/**
 * viem with its stock `mainnet` chain against the embedded chain: the Universal Resolver is where viem looks for it.
 * Run: npm run example -- ens/resolve-with-viem
 */
export default async function resolveWithViem({ api, print }: Example): Promise<void> {
  const client = createPublicClient({ chain: mainnet, transport: http(await embeddedRpcUrl(api)) });
  for (const name of ['alice.eth', 'dave.offchain.eth']) {
    const rest = await json<{ address: string }>(await fetch(`${api}/api/ens/resolve/${name}`));
    print(`${name} → ${await client.getEnsAddress({ name })} (REST: ${rest.address})`);
  }
  print(`dave.offchain.eth url: ${await client.getEnsText({ name: 'dave.offchain.eth', key: 'url' })}`);
  print(
    `0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC ← ${await client.getEnsName({ address: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' })}`,
  );
}
