import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { ArcadeSettings, ChainSettings } from '@coinop/protocol';
import { getAddress } from 'viem';
import { ChainAdmin } from '../../services/chain-admin.js';
import { isDevelopmentArcade } from '../../config.js';
import type { SchemaMatches } from '../../listener/wire-check.js';
import { ApiTags, Security } from '../../listener/openapi.js';
import { Patterns } from '../../listener/string-patterns.js';

const Address = (description: string) => Type.String({ ...Patterns.walletAddress, description });

const ChainSettingsSchema = Type.Object(
  {
    chainId: Type.Union([Type.Integer(), Type.Null()], {
      description: "The chain's EIP-155 id; null until the arcade has first reached the chain",
    }),
    rpcUrl: Type.Union([Type.String(), Type.Null()], {
      description:
        'A JSON-RPC URL of the chain for browsers (`--chain-public-rpc-url`), for reading ' +
        'balances and sending a deposit; null when the operator publishes none',
    }),
    hst: Type.Union([Address('The HST token, checksummed'), Type.Null()], {
      description: "HST's address; null until the arcade has first reached the chain",
    }),
    vault: Address('The vault contract players deposit into, checksummed'),
    confirmations: Type.Integer({
      description: "Blocks built on a deposit's block before the arcade credits it",
    }),
  },
  { description: "Where the arcade's HST lives on chain (docs/concepts/chain.md)." },
);
const ArcadeSettingsSchema = Type.Object(
  {
    chain: Type.Union([ChainSettingsSchema, Type.Null()], {
      description: "Chain mode's settings; null when the arcade's HST lives only in its ledger",
    }),
    development: Type.Boolean({
      description:
        'True for a development arcade (`--demo`, `--dev-chain` or a faucet): its HST is test ' +
        'money, worth nothing',
    }),
  },
  { description: 'What any visitor may know about this arcade.' },
);

declare const _chainSettings: SchemaMatches<typeof ChainSettingsSchema, ChainSettings>;
declare const _arcadeSettings: SchemaMatches<typeof ArcadeSettingsSchema, ArcadeSettings>;

/**
 * `GET /arcade`: the arcade's public settings, which the web app reads at start (chain mode, and
 * where a wallet deposits). No credentials: nothing here is secret from a visitor.
 */
export async function arcadeSettingsPlugin(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const { arcade, config } = app;
  const chainAdmin = new ChainAdmin(arcade);
  // The chain id and HST's address never change for a vault: once read, kept.
  let known: { chainId: number; hst: string } | null = null;

  const chainSettings = async (): Promise<ChainSettings | null> => {
    const chain = config.chain;
    if (chain === null) return null;
    if (known === null) {
      const checkpoint = (await chainAdmin.checkpoints(chain.vaultAddress))[0];
      const state = arcade.chain?.state;
      if (checkpoint) known = { chainId: checkpoint.chainId, hst: checkpoint.tokenAddress };
      else if (state && state.chainId !== null && state.tokenAddress !== null) {
        known = { chainId: state.chainId, hst: state.tokenAddress };
      }
    }
    return {
      chainId: known?.chainId ?? null,
      // Only the URL published for browsers: the server's own may carry a provider's key.
      rpcUrl: chain.publicRpcUrl,
      hst: known ? getAddress(known.hst) : null,
      vault: getAddress(chain.vaultAddress),
      confirmations: chain.confirmations,
    };
  };

  app.get(
    '/arcade',
    {
      schema: {
        operationId: 'getArcade',
        security: Security.none,
        tags: [ApiTags.catalog],
        summary: "The arcade's public settings: chain mode, where wallets deposit, test money",
        description:
          'No credentials. `chain` is null without chain mode; in chain mode `chainId` and ' +
          '`hst` are null until the arcade has first reached the chain.',
        response: { 200: ArcadeSettingsSchema },
      },
    },
    async () => ({ chain: await chainSettings(), development: isDevelopmentArcade(config) }),
  );
}
