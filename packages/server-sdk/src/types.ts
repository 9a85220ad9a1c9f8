import type * as wire from '@coinop/protocol';

/**
 * The shapes the arcade API answers with, field for field (spec section 2): the wire types of
 * `@coinop/protocol`, which the server's schemas are checked against, under the SDK's names.
 * Amounts are HST as numbers with at most 8 decimals; timestamps are ISO 8601 strings in UTC.
 */

/**
 * One player on a leaderboard with their best score (spec 2.4).
 *
 * @example
 * ```ts
 * import type { Leader } from '@coinop/server-sdk';
 * const top: Leader | undefined = (await arcade.leaders(leaderboardId))[0];
 * ```
 */
export type Leader = wire.Leader;

/**
 * A leaderboard tier: what a play costs and who leads (spec 2.3).
 *
 * @example
 * ```ts
 * import type { Leaderboard } from '@coinop/server-sdk';
 * const tiers: Leaderboard[] = await arcade.leaderboards();
 * console.log(tiers.map((t) => `${t.name}: ${t.formattedCostString}`));
 * ```
 */
export type Leaderboard = wire.Leaderboard;

/**
 * The game the client credentials belong to, with its tiers (spec 2.2).
 *
 * @example
 * ```ts
 * import type { Game } from '@coinop/server-sdk';
 * const game: Game = arcade.game;
 * console.log(game.name, game.scoreDisplay);
 * ```
 */
export type Game = wire.Game;

/**
 * A play: the cost of one tier locked from a player until the play is scored or expires
 * (spec 2.5).
 *
 * @example
 * ```ts
 * import type { Play } from '@coinop/server-sdk';
 * const play: Play = await arcade.play(playerId, leaderboardId);
 * console.log(`locked ${play.cost} HST until ${play.expiresAt}`);
 * // The run's randomness comes from play.seed (absent on an arcade without seeds).
 * ```
 */
export interface Play extends Omit<wire.Play, 'status'> {
  // The published shape: the server also answers 'voided' for a play of a suspended game, but
  // adding it to this union would break an exhaustive switch in a game's code.
  readonly status: 'open' | 'scored' | 'expired';
}

/**
 * What scoring a play did: the rank of the score and the leaders after it (spec 2.6).
 *
 * @example
 * ```ts
 * import type { ScoreResult } from '@coinop/server-sdk';
 * const result: ScoreResult = await arcade.score(play, 1200);
 * if (result.isWinner) console.log(`rank ${result.leaderRank}`);
 * ```
 */
export type ScoreResult = wire.ScoreResult;

/**
 * A player's best score on a tier, and its rank; both null when they have not scored there.
 *
 * @example
 * ```ts
 * import type { TopScore } from '@coinop/server-sdk';
 * const best: TopScore = await arcade.topScore(leaderboardId, playerId);
 * console.log(best.value ?? 'no score yet');
 * ```
 */
export type TopScore = wire.TopScore;

/**
 * One payout a player received from the game as a leader.
 *
 * @example
 * ```ts
 * import type { PayoutEvent } from '@coinop/server-sdk';
 * const [latest]: readonly PayoutEvent[] = (await arcade.payouts(playerId)).events;
 * console.log(latest?.details.paymentAmount);
 * ```
 */
export type PayoutEvent = wire.PayoutEvent;

/**
 * A page of payouts, newest first, with the cursors of its ends.
 *
 * @example
 * ```ts
 * import type { PayoutsPage } from '@coinop/server-sdk';
 * const page: PayoutsPage = await arcade.payouts(playerId, { limit: 20 });
 * const older = page.endingBefore && (await arcade.payouts(playerId, {
 *   startingAfter: page.endingBefore,
 * }));
 * ```
 */
export type PayoutsPage = wire.PayoutsPage;

/**
 * The ledger transfer that locked a play's cost, and where it stands.
 *
 * @example
 * ```ts
 * import type { PlayTransaction } from '@coinop/server-sdk';
 * const lock: PlayTransaction = await arcade.playTransaction(play.id);
 * console.log(lock.status); // "pending" until the play is scored or expires
 * ```
 */
export type PlayTransaction = wire.PlayTransaction;

/**
 * A player's profile and HST balance.
 *
 * @example
 * ```ts
 * import type { PlayerDetails } from '@coinop/server-sdk';
 * const player: PlayerDetails = await arcade.playerDetails(playerId);
 * console.log(`${player.name} can spend ${player.balance} HST`);
 * ```
 */
export type PlayerDetails = wire.PlayerDetails;

/**
 * What a valid player token says about its player (spec 5.3).
 *
 * @example
 * ```ts
 * import type { PlayerIdentity } from '@coinop/server-sdk';
 * const player: PlayerIdentity = await arcade.validatePlayerToken(token);
 * console.log(player.playerId, player.displayName ?? 'anonymous');
 * ```
 */
export interface PlayerIdentity {
  /** The player's id: pass it to `play` and the player reads. */
  readonly playerId: string;
  /** The display name the player chose; null when the token carries none. */
  readonly displayName: string | null;
  /** URL of the player's avatar; null when they have not set one. */
  readonly picture: string | null;
}

/**
 * One player's place on a tier's board: exact 1-based rank, best score, name and avatar.
 *
 * @example
 * ```ts
 * import type { BoardEntry } from '@coinop/server-sdk';
 * const line = (e: BoardEntry) => `#${e.rank} ${e.name} ${e.score}`;
 * ```
 */
export type BoardEntry = wire.BoardEntry;

/**
 * A page of a tier's board, best first; `nextCursor` is null on the last page.
 *
 * @example
 * ```ts
 * import type { BoardPage } from '@coinop/server-sdk';
 * const page: BoardPage = await arcade.boardPage(leaderboardId, { limit: 50 });
 * ```
 */
export type BoardPage = wire.BoardPage;

/**
 * A player's rank on a tier with the players just above and below (`player` null when they have
 * no score there).
 *
 * @example
 * ```ts
 * import type { BoardAround } from '@coinop/server-sdk';
 * const around: BoardAround = await arcade.boardAround(leaderboardId, playerId, { count: 3 });
 * ```
 */
export type BoardAround = wire.BoardAround;

/**
 * A tournament of the game (docs/reference/tournaments.md): a board with a start and an end whose
 * plays fill a prize pool, paid to its standings at the close. `currentRound` is the round open
 * now (or the next one); play it by passing its `id`, or the tournament's `id`, as the
 * leaderboard id.
 *
 * @example
 * ```ts
 * import type { Tournament } from '@coinop/server-sdk';
 * const [cup]: readonly Tournament[] = await arcade.tournaments();
 * console.log(cup?.name, cup?.currentRound?.pool);
 * ```
 */
export type Tournament = wire.Tournament;

/**
 * One round of a tournament: its window, entrants and pool (HST as an exact decimal string).
 *
 * @example
 * ```ts
 * import type { TournamentRound } from '@coinop/server-sdk';
 * const open = (round: TournamentRound | null) => round?.status === 'open';
 * ```
 */
export type TournamentRound = wire.TournamentRound;

/**
 * A player's entry in a tournament round: attempts used (every play opened, scored or not) and
 * left (null without a limit), and their rank and best score on the round (null until they score).
 *
 * @example
 * ```ts
 * import type { TournamentEntry } from '@coinop/server-sdk';
 * const canPlay = (entry: TournamentEntry) => entry.attemptsLeft !== 0;
 * ```
 */
export type TournamentEntry = wire.TournamentEntry;
