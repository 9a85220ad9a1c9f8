import { buildTestApi } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainConfigFor, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';

/**
 * `GET /arcade`: the public settings the web app reads at start. Without chain mode `chain` is
 * null; in chain mode it says where a wallet deposits, with the chain id and HST's address once
 * the arcade has read them from the chain (a real Anvil).
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
});
afterAll(() => chain.stop());

/** The URL an operator publishes for browsers (`--chain-public-rpc-url`). */
const PUBLIC_RPC = 'https://rpc.example.org/public';

describe.each(storeVariants())('GET /arcade on %s', (variant) => {
  it('answers chain: null without chain mode, to anyone', async () => {
    const api = await buildTestApi(variant);
    try {
      const res = await api.app.inject({ method: 'GET', url: '/arcade' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ chain: null, development: false });
    } finally {
      await api.close();
    }
  });

  it('says a development arcade (a faucet, the demo) holds test money', async () => {
    for (const overrides of [{ faucetHst: 10 }, { demo: true }]) {
      const api = await buildTestApi(variant, overrides);
      try {
        const res = await api.app.inject({ method: 'GET', url: '/arcade' });
        expect(res.statusCode).toBe(200);
        expect(res.json(), JSON.stringify(overrides)).toEqual({ chain: null, development: true });
      } finally {
        await api.close();
      }
    }
  });

  it('gives the chain settings in chain mode, the chain id and HST once read', async () => {
    const vault = await chain.newVault();
    const api = await buildTestApi(variant, {
      chain: chainConfigFor(chain, vault, { confirmations: 4, publicRpcUrl: PUBLIC_RPC }),
    });
    try {
      const before = await api.app.inject({ method: 'GET', url: '/arcade' });
      expect(before.statusCode).toBe(200);
      expect(before.json()).toEqual({
        chain: {
          chainId: null,
          rpcUrl: PUBLIC_RPC,
          hst: null,
          vault: getAddress(vault.vault),
          confirmations: 4,
        },
        development: false,
      });
      await api.app.arcade.chain!.runOnce();
      const after = await api.app.inject({
        method: 'GET',
        url: '/arcade',
        // A credential is not needed, and one of no use here is not refused either.
        headers: { authorization: 'Bearer not-a-token' },
      });
      expect(after.statusCode).toBe(200);
      expect(after.json()).toEqual({
        chain: {
          chainId: chain.chainId,
          rpcUrl: PUBLIC_RPC,
          hst: getAddress(chain.hst),
          vault: getAddress(vault.vault),
          confirmations: 4,
        },
        development: false,
      });
    } finally {
      await api.close();
    }
  });

  it('hands out no RPC URL unless one is published for browsers', async () => {
    const vault = await chain.newVault();
    const api = await buildTestApi(variant, {
      chain: { ...chainConfigFor(chain, vault), rpcUrl: `${chain.anvil.rpcUrl}/v3/secretkey` },
    });
    try {
      const res = await api.app.inject({ method: 'GET', url: '/arcade' });
      expect(res.json()).toMatchObject({ chain: { rpcUrl: null } });
      expect(res.body).not.toContain('secretkey');
    } finally {
      await api.close();
    }
  });
});
