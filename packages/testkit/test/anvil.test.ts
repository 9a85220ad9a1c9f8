import { anvilBinary, startAnvil } from '@coinop/testkit/anvil';
import { existsSync } from 'node:fs';
import { createPublicClient, createWalletClient, http, parseEther } from 'viem';
import { expect, it } from 'vitest';

it('starts Anvil from the npm package, with the funded accounts it reports, and stops it', async () => {
  expect(existsSync(anvilBinary())).toBe(true);
  const node = await startAnvil();
  try {
    const client = createPublicClient({ transport: http(node.rpcUrl) });
    expect(node.chainId).toBe(31337);
    expect(await client.getChainId()).toBe(31337);
    // Our derivation of the keys agrees with the node's own list of accounts (eth_accounts).
    const reported = await createWalletClient({ transport: http(node.rpcUrl) }).getAddresses();
    expect(node.accounts.map((account) => account.address)).toEqual(reported);
    expect(node.accounts[0]!.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    for (const account of node.accounts) {
      expect(await client.getBalance({ address: account.address })).toBe(parseEther('10000'));
    }
  } finally {
    await node.stop();
  }
  await expect(fetch(node.rpcUrl, { method: 'POST' })).rejects.toThrow();
});
