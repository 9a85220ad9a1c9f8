import { CoinopError, formatHst, playerActor, wholeHstToUnits, type Units } from '@coinop/core';
import { v5 as uuidv5 } from 'uuid';
import { countGameClients, findGameIdByName } from '../store/admin.js';
import type { Queryable } from '../store/db.js';
import {
  findGame,
  insertGame,
  loadGameRef,
  updateGame,
  type GameUpdate,
  type NewGame,
} from '../store/games.js';
import { createGameClient } from '../credentials/game-clients.js';
import { createPlayer, findPlayerByWallet, type PlayerRecord } from '../store/players.js';
import { ensureDeveloper } from '../store/developers.js';
import type { ArcadeServices } from './arcade-services.js';
import { publish } from './admin.js';
import { mintHst } from './admin-hst.js';
import { AdvisoryLocks } from '../store/advisory-locks.js';
import { notifyGameChanged } from '../store/cache-notices.js';
import type { DevChainFunds } from '../dev-chain/dev-chain-funds.js';
import { SLIDE_GAME, ensureSlideIntegrity } from './demo-slide.js';

/**
 * The demo arcade of `coinop serve --demo`: a developer, the three example games of `examples/`
 * (published, with the default tiers), a client for the reaction game's server, and two funded
 * players. Every step finds what an earlier start made, so seeding on every start changes nothing
 * after the first.
 *
 * The demo wallets are Anvil's well-known test accounts 1 to 3 (Foundry's public `test … junk`
 * mnemonic), so on the dev chain (`--dev-chain`) they hold test HST and ETH, and a developer can
 * import them into a browser wallet. On the dev chain the players' HST is minted to their wallets
 * and deposited into the vault, so the ledger's balances are backed by it; without a chain it is
 * minted in the ledger.
 */

/** Anvil's account 3. */
export const DEMO_DEVELOPER_WALLET = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
export const DEMO_GAME_NAME = 'Demo Reaction';
export const HIGH_LOW_GAME_NAME = 'High-Low';
/** Where `npm start` serves the examples (`examples/reaction`, `examples/high-low`). */
export const REACTION_EXAMPLE_URL = 'http://127.0.0.1:8090/';
export const HIGH_LOW_EXAMPLE_URL = 'http://127.0.0.1:8091/';
/** Anvil's accounts 1 and 2. */
export const DEMO_PLAYERS = [
  { wallet: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', name: 'Demo Player One' },
  { wallet: '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC', name: 'Demo Player Two' },
] as const;
/** Each demo player's arcade balance: minted in the ledger, or deposited on the dev chain. */
export const DEMO_PLAYER_FUNDING_HST = 1000;
/** On the dev chain, what the demo developer deposits (its earnings come on top). */
export const DEMO_DEVELOPER_DEPOSIT_HST = 100;
/** On the dev chain, HST minted to each demo wallet: its deposit, and as much again to deposit. */
export const DEMO_WALLET_MINT_HST = 2000;

/** What each demo player allows each demo game to charge a day (docs/concepts/consent.md). */
const DEMO_PLAYER_ALLOWANCE_HST = 100;
// Namespace for the demo's deterministic transfer ids: each player is funded exactly once.
const DEMO_NAMESPACE = '5b0f6a53-3c1e-4d7e-9a4b-2f8c1d6e7a90';
// Serialises demo seeding when several processes start together.
const DEMO_SEED_LOCK_ID = AdvisoryLocks.demoSeed;

type DemoGame = Omit<NewGame, 'developerId' | 'prodDomain' | 'developerInfo'>;

const REACTION_GAME: DemoGame = {
  name: DEMO_GAME_NAME,
  description: 'Click the moment the screen turns green. The fastest reaction wins.',
  category: 'Arcade',
  tagLine: 'How fast are you?',
  url: REACTION_EXAMPLE_URL,
  coverUrl: `${REACTION_EXAMPLE_URL}cover.png`,
  scoreDisplay: 'REVERSE',
  scoreUnit: 'ms',
};

/** What an older seed said of High-Low, when it could only be played from a terminal. */
const HIGH_LOW_TERMINAL_ONLY_DESCRIPTION =
  'Guess whether the next card is higher or lower. The game server deals and keeps the ' +
  'score; play it from a terminal.';

const HIGH_LOW_GAME: DemoGame = {
  name: HIGH_LOW_GAME_NAME,
  description:
    'Guess whether the next card is higher or lower; each right call adds to your streak. The ' +
    'game server deals and keeps the score. Play it here: press Sign in with the arcade, then ' +
    'Deal. Or in a terminal: npm run play -w @coinop/example-high-low in a checkout of coinop.',
  category: 'Cards',
  tagLine: 'Call the next card',
  url: HIGH_LOW_EXAMPLE_URL,
  coverUrl: `${HIGH_LOW_EXAMPLE_URL}cover.png`,
  scoreDisplay: 'NORMAL',
  // The score is the streak of right calls: "7 in a row" reads right for 1 and for 7.
  scoreUnit: 'in a row',
};

export interface DemoSeed {
  readonly developerId: string;
  /** The reaction example ("Demo Reaction"). */
  readonly gameId: string;
  /** The high-low example; its server makes its own client through the admin API. */
  readonly highLowGameId: string;
  /** The slide example, whose scores its replay verifier checks. */
  readonly slideGameId: string;
  /** Present only on the start that created the client: the secret is never stored in clear. */
  readonly client: { clientId: string; clientSecret: string } | null;
  readonly players: readonly {
    id: string;
    name: string;
    wallet: `0x${string}`;
    /** Spendable HST in the arcade, in base units. */
    balanceUnits: Units;
    /** HST in the wallet on the dev chain, in base units; null without one. */
    walletUnits: Units | null;
  }[];
  /** A readable summary, one line each, for the start-up log. */
  readonly lines: readonly string[];
}

export async function seedDemo(arcade: ArcadeServices): Promise<DemoSeed> {
  const developer = await ensureDeveloper(
    arcade.db,
    arcade.clock,
    arcade.ids,
    DEMO_DEVELOPER_WALLET,
  );

  const [reactionGame, highLowGame, slideGame] = examplesServedBy(arcade);
  const { gameId, highLowGameId, slideGameId, client } = await arcade.db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [DEMO_SEED_LOCK_ID]);
    const id = await ensureGame(tx, arcade, developer.id, reactionGame);
    const highLowId = await ensureGame(tx, arcade, developer.id, highLowGame);
    const slideId = await ensureGame(tx, arcade, developer.id, slideGame);
    // Another process may hold any of the games from an earlier seed.
    for (const changed of [id, highLowId, slideId]) await notifyGameChanged(tx, changed);
    // Made in the same locked transaction as the game, so two starts never make two clients.
    const hasClient = (await countGameClients(tx, id)) > 0;
    return {
      gameId: id,
      highLowGameId: highLowId,
      slideGameId: slideId,
      client: hasClient ? null : await createGameClient(tx, arcade.clock, id),
    };
  });
  const slideLines = await ensureSlideIntegrity(arcade, developer, slideGameId);
  const demoGameIds = [gameId, highLowGameId, slideGameId];
  for (const id of demoGameIds) {
    arcade.games.invalidate(id);
    arcade.reads.invalidate(id);
    await publish(arcade, id);
  }

  const funds = arcade.devChainFunds;
  const players = [];
  for (const demo of DEMO_PLAYERS) {
    const player = await findOrCreatePlayer(arcade, demo.wallet, demo.name);
    if (funds) {
      await fundOnDevChain(funds, demo.wallet, player.id, DEMO_PLAYER_FUNDING_HST);
    } else if (!arcade.config.chain) {
      await mintHst(arcade, {
        id: player.id,
        amountUnits: wholeHstToUnits(DEMO_PLAYER_FUNDING_HST),
        transferId: uuidv5(`demo-funding:${player.id}`, DEMO_NAMESPACE),
      });
    }
    // The demo players allow the demo games through the service their own PUT
    // /player/allowances/{gameId} calls, as themselves (docs/concepts/consent.md, "The demo"):
    // the demo wallets are the operator's, their keys public. A choice the player made since (a
    // revocation, say) stands.
    for (const id of demoGameIds) {
      const allowance = await arcade.consent.allowance(player.id, id);
      if (allowance.source === 'default') {
        await arcade.consent.grant(
          playerActor(player.id, 'player_session'),
          { playerId: player.id, gameId: id },
          wholeHstToUnits(DEMO_PLAYER_ALLOWANCE_HST),
        );
      }
    }
    players.push({ id: player.id, name: player.name, wallet: demo.wallet });
  }
  if (funds) {
    await fundOnDevChain(funds, DEMO_DEVELOPER_WALLET, developer.id, DEMO_DEVELOPER_DEPOSIT_HST);
    // Credited now rather than at the watcher's first round, so the balances below are whole.
    await arcade.chain?.runOnce();
  }
  const funded = [];
  for (const player of players) {
    const { balanceUnits } = await arcade.reads.playerDetails(player.id);
    const walletUnits = funds ? await funds.walletHst(player.wallet) : null;
    funded.push({ ...player, balanceUnits, walletUnits });
  }

  const lines = [
    `arcade ${arcade.record.id}`,
    `developer ${developer.id} (wallet ${DEMO_DEVELOPER_WALLET})`,
    await gameLine(arcade, gameId, reactionGame),
    ...(client
      ? [
          `client id ${client.clientId}; its secret is in the data directory's ` +
            'demo-client.json (mode 0600), never in the log',
        ]
      : [`client already issued; for another: coinop admin client create --game ${gameId}`]),
    await gameLine(arcade, highLowGameId, highLowGame),
    `high-low: COINOP_GAME_ID=${highLowGameId} (its server makes its own client unless given one)`,
    await gameLine(arcade, slideGameId, slideGame),
    ...slideLines,
    ...funded.map(
      (p) =>
        `player "${p.name}" ${p.id} (wallet ${p.wallet}), ${formatHst(p.balanceUnits)} HST` +
        (p.walletUnits === null
          ? ''
          : ` in the arcade, ${formatHst(p.walletUnits)} HST in the wallet`),
    ),
    ...(arcade.config.chain && !funds
      ? ['the demo players are not funded: off a dev chain, HST comes only from deposits']
      : []),
    `the demo players allow each demo game ${DEMO_PLAYER_ALLOWANCE_HST} HST a day`,
  ];
  return {
    developerId: developer.id,
    gameId,
    highLowGameId,
    slideGameId,
    client,
    players: funded,
    lines,
  };
}

/** The examples by the names `npm start` gives them in `--banner-game`. */
const EXAMPLES: readonly (readonly [string, DemoGame])[] = [
  ['reaction', REACTION_GAME],
  ['high-low', HIGH_LOW_GAME],
  ['slide', SLIDE_GAME],
];

/** Each example where this start says it is served (`--banner-game reaction=…`: npm start's). */
function examplesServedBy(arcade: ArcadeServices): [DemoGame, DemoGame, DemoGame] {
  const [reaction, highLow, slide] = EXAMPLES.map(([name, game]) => servedAt(arcade, name, game));
  if (!reaction || !highLow || !slide) throw new TypeError('the demo has three example games');
  return [reaction, highLow, slide];
}

/**
 * The example game as served where `--banner-game <name>=<url>` says (the URLs `npm start` passes
 * are the defaults), its cover beside it; where npm start serves it when no such flag names it.
 */
function servedAt(arcade: ArcadeServices, name: string, game: DemoGame): DemoGame {
  const named = arcade.config.bannerGames.find((g) => g.name === name);
  if (!named) return game;
  const url = named.url.endsWith('/') ? named.url : `${named.url}/`;
  return { ...game, url, coverUrl: `${url}cover.png` };
}

/** A local example's address, as a seed sets it: `http://127.0.0.1:<port>/`. */
const SEEDED_URL = /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d+\/$/;

/**
 * Finds the developer's game by name or registers it. A game an older seed made without a URL,
 * cover or score unit gets the example's; one that has its own keeps it, but one still at a
 * local example address a seed set (its cover beside it) follows where this start serves the
 * example, so an arcade started with other ports frames its own examples. High-Low's
 * terminal-only text of an older seed gives way to the one that says how to play in the browser.
 */
async function ensureGame(
  tx: Queryable,
  arcade: ArcadeServices,
  developerId: string,
  game: DemoGame,
): Promise<string> {
  const id = await findGameIdByName(tx, developerId, game.name);
  if (id === null) {
    const record = await insertGame(
      tx,
      arcade.clock,
      arcade.ids,
      arcade.record.id,
      { ...game, developerId, developerInfo: 'The coinop demo developer', prodDomain: null },
      arcade.config.defaultTiers.map((tier) => ({
        name: tier.name,
        costUnits: wholeHstToUnits(tier.costHst),
        leadersMax: arcade.config.defaultLeadersMax,
      })),
    );
    if (game.aspectRatio) {
      await updateGame(tx, arcade.clock, record.id, { aspectRatio: game.aspectRatio });
    }
    return record.id;
  }
  const found = await findGame(tx, id);
  const update: GameUpdate = {};
  // The example declares its frame's shape (issue 31); a developer's own choice stays.
  if (found && (found.aspectRatio ?? null) === null && game.aspectRatio)
    update.aspectRatio = game.aspectRatio;
  const seeded =
    found !== null &&
    SEEDED_URL.test(found.url) &&
    found.coverUrl === `${found.url}cover.png` &&
    found.url !== game.url;
  if (found?.url === '' || seeded) update.url = game.url;
  if (found?.coverUrl === '' || seeded) update.coverUrl = game.coverUrl;
  if (found?.scoreUnit === '') update.scoreUnit = game.scoreUnit;
  if (found?.description === HIGH_LOW_TERMINAL_ONLY_DESCRIPTION) {
    update.description = game.description;
  }
  if (Object.keys(update).length > 0) await updateGame(tx, arcade.clock, id, update);
  return id;
}

async function gameLine(arcade: ArcadeServices, gameId: string, game: DemoGame): Promise<string> {
  const ref = await loadGameRef(arcade.db, gameId);
  const tiers = (ref?.leaderboards ?? [])
    .map((b) => `${b.name} ${formatHst(b.costUnits)} HST (${b.id})`)
    .join(', ');
  // The URL the game has, which the arcade frames: the example's, or one its developer set.
  const url = (await findGame(arcade.db, gameId))?.url ?? game.url;
  return `game "${game.name}" ${gameId} at ${url}, published; leaderboards: ${tiers}`;
}

/**
 * Mints test HST to a demo wallet and deposits `depositHst` of it for `accountId`, once: a wallet
 * that deposited for the account before is left alone, and one minted but not yet deposited (a
 * start that stopped in between) is not minted again.
 */
async function fundOnDevChain(
  funds: DevChainFunds,
  wallet: `0x${string}`,
  accountId: string,
  depositHst: number,
): Promise<void> {
  if (await funds.hasDeposited(wallet, accountId)) return;
  const deposit = wholeHstToUnits(depositHst);
  if ((await funds.walletHst(wallet)) < deposit) {
    await funds.mint(wallet, wholeHstToUnits(DEMO_WALLET_MINT_HST));
  }
  await funds.topUpGas(wallet);
  await funds.depositFrom(wallet, accountId, deposit);
}

async function findOrCreatePlayer(
  arcade: ArcadeServices,
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
