import { CoinopError, unitsToHstNumber, wholeHstToUnits } from '@coinop/core';
import { v5 as uuidv5 } from 'uuid';
import { countGameClients, findGameIdByName } from '../store/admin.js';
import { insertGame, loadGameRef } from '../store/games.js';
import {
  createGameClient,
  createPlayer,
  ensureDeveloper,
  findPlayerByWallet,
  type PlayerRecord,
} from '../store/parties.js';
import type { Arcade } from './arcade.js';
import { accountBalance, mintHst, publish } from './admin.js';

/**
 * The demo arcade of `coinop serve --demo`: a developer, a published game with the default tiers,
 * a client for its server, and two funded players. Every step finds what an earlier start made,
 * so seeding on every start changes nothing after the first.
 */

export const DEMO_DEVELOPER_WALLET = '0x000000000000000000000000000000000000dEaD';
export const DEMO_GAME_NAME = 'Demo Reaction';
export const DEMO_PLAYERS = [
  { wallet: '0x000000000000000000000000000000000000d001', name: 'Demo Player One' },
  { wallet: '0x000000000000000000000000000000000000d002', name: 'Demo Player Two' },
] as const;
export const DEMO_PLAYER_FUNDING_HST = 1000;

// Namespace for the demo's deterministic transfer ids: each player is funded exactly once.
const DEMO_NAMESPACE = '5b0f6a53-3c1e-4d7e-9a4b-2f8c1d6e7a90';
// Any fixed number: serialises demo seeding when several processes start together.
const DEMO_SEED_LOCK_ID = 7_311_006;

export interface DemoSeed {
  readonly developerId: string;
  readonly gameId: string;
  /** Present only on the start that created the client: the secret is never stored in clear. */
  readonly client: { clientId: string; clientSecret: string } | null;
  readonly players: readonly { id: string; name: string; wallet: string; balance: number }[];
  /** A readable summary, one line each, for the start-up log. */
  readonly lines: readonly string[];
}

export async function seedDemo(arcade: Arcade): Promise<DemoSeed> {
  const developer = await ensureDeveloper(
    arcade.db,
    arcade.clock,
    arcade.ids,
    DEMO_DEVELOPER_WALLET,
  );

  const { gameId, client } = await arcade.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [DEMO_SEED_LOCK_ID]);
    let id = await findGameIdByName(tx, developer.id, DEMO_GAME_NAME);
    if (id === null) {
      const game = await insertGame(
        tx,
        arcade.clock,
        arcade.ids,
        arcade.record.id,
        {
          developerId: developer.id,
          name: DEMO_GAME_NAME,
          description: 'Click the moment the screen turns green. The fastest reaction wins.',
          category: 'Arcade',
          developerInfo: 'The coinop demo developer',
          tagLine: 'How fast are you?',
          url: '',
          coverUrl: '',
          scoreDisplay: 'REVERSE',
          prodDomain: null,
        },
        arcade.config.defaultTiers.map((tier) => ({
          name: tier.name,
          costUnits: wholeHstToUnits(tier.costHst),
          leadersMax: arcade.config.defaultLeadersMax,
        })),
      );
      id = game.id;
    }
    // Made in the same locked transaction as the game, so two starts never make two clients.
    const hasClient = (await countGameClients(tx, id)) > 0;
    return {
      gameId: id,
      client: hasClient ? null : await createGameClient(tx, arcade.clock, id),
    };
  });
  await publish(arcade, gameId);

  const players = [];
  for (const demo of DEMO_PLAYERS) {
    const player = await findOrCreatePlayer(arcade, demo.wallet, demo.name);
    await mintHst(arcade, {
      id: player.id,
      amountUnits: wholeHstToUnits(DEMO_PLAYER_FUNDING_HST),
      transferId: uuidv5(`demo-funding:${player.id}`, DEMO_NAMESPACE),
    });
    const { balance } = await accountBalance(arcade, player.id);
    players.push({ id: player.id, name: player.name, wallet: demo.wallet, balance });
  }

  const game = await loadGameRef(arcade.db, gameId);
  const tiers = (game?.leaderboards ?? [])
    .map((b) => `${b.name} ${unitsToHstNumber(b.costUnits)} HST (${b.id})`)
    .join(', ');
  const lines = [
    `arcade ${arcade.record.id}`,
    `developer ${developer.id} (wallet ${DEMO_DEVELOPER_WALLET})`,
    `game "${DEMO_GAME_NAME}" ${gameId}, published; leaderboards: ${tiers}`,
    ...(client
      ? [
          `client id ${client.clientId}`,
          `client secret ${client.clientSecret} (shown this once; save it now)`,
        ]
      : [`client already issued; for another: coinop admin client create --game ${gameId}`]),
    ...players.map((p) => `player "${p.name}" ${p.id} (wallet ${p.wallet}), ${p.balance} HST`),
  ];
  return { developerId: developer.id, gameId, client: client, players, lines };
}

async function findOrCreatePlayer(
  arcade: Arcade,
  wallet: string,
  name: string,
): Promise<PlayerRecord> {
  const found = await findPlayerByWallet(arcade.db, wallet);
  if (found) return found;
  try {
    return await createPlayer(arcade.db, arcade.clock, arcade.ids, { wallet, name });
  } catch (error) {
    // Another process seeding at the same moment won the race for this wallet.
    if (!(error instanceof CoinopError) || error.code !== 'wallet_already_registered') throw error;
    const winner = await findPlayerByWallet(arcade.db, wallet);
    if (!winner) throw error;
    return winner;
  }
}
