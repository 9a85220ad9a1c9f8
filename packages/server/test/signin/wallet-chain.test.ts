import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSiweMessage } from 'viem/siwe';
import { storeVariants } from '@coinop/testkit/db';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';

/** A contract wallet's address: no private key signs for it, the contract does (EIP-1271). */
const CONTRACT_WALLET = '0x5afe5afe5afe5afe5afe5afe5afe5afe5afe5afe';
const TRUE_WORD = `0x${'0'.repeat(63)}1`;

/**
 * A stand-in chain node: Chain ID 137, and eth_call answers "valid" for calls about the contract
 * wallet (viem's signature validator) and reverts for others, as a node does for plain accounts.
 */
function fakeChain(): Promise<{ server: Server; url: string; methods: string[] }> {
  const methods: string[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const call = JSON.parse(body) as { id: number; method: string; params: [{ data?: string }] };
      methods.push(call.method);
      const data = call.params?.[0]?.data ?? '';
      const answer =
        call.method === 'eth_chainId'
          ? { result: '0x89' }
          : data.includes(CONTRACT_WALLET.slice(2))
            ? { result: TRUE_WORD }
            : { error: { code: 3, message: 'execution reverted', data: '0x' } };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, ...answer }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}/`, methods });
    }),
  );
}

describe.each(storeVariants())('wallet sign-in with --chain-rpc-url on %s', (variant) => {
  let s: TestSignin;
  let chain: Awaited<ReturnType<typeof fakeChain>>;
  beforeAll(async () => {
    chain = await fakeChain();
    s = await buildTestSignin(variant, { chainRpcUrl: chain.url });
  });
  afterAll(async () => {
    await s.close();
    chain.server.close();
  });

  it("writes the chain's id into the message and still signs ordinary wallets in", async () => {
    const wallet = newWallet();
    const challenge = await s.auth.inject({
      method: 'POST',
      url: '/wallet/challenge',
      payload: { address: wallet.address },
    });
    expect(parseSiweMessage(challenge.json().message).chainId).toBe(137);
    const session = await walletSignIn(s.auth, wallet);
    expect(session.playerId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('signs a contract wallet in when the chain says its contract signed (EIP-1271)', async () => {
    const challenge = await s.auth.inject({
      method: 'POST',
      url: '/wallet/challenge',
      payload: { address: CONTRACT_WALLET },
    });
    const { message } = challenge.json<{ message: string }>();
    const calls = chain.methods.length;
    const verify = await s.auth.inject({
      method: 'POST',
      url: '/wallet/verify',
      payload: { message, signature: `0x${'ab'.repeat(100)}` },
    });
    expect(verify.statusCode).toBe(200);
    expect(chain.methods.slice(calls)).toContain('eth_call');
    const [player] = await s.db.query<{ id: string }>('SELECT id FROM players WHERE wallet = $1', [
      CONTRACT_WALLET,
    ]);
    expect(verify.json().playerId).toBe(player!.id);
  });

  it('answers 503 when the chain cannot be reached', async () => {
    const down = await buildTestSignin(variant, { chainRpcUrl: 'http://127.0.0.1:9/' });
    try {
      const res = await down.auth.inject({
        method: 'POST',
        url: '/wallet/challenge',
        payload: { address: newWallet().address },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'service_unavailable',
        message: 'cannot reach the chain (--chain-rpc-url)',
      });
    } finally {
      await down.close();
    }
  });
});
