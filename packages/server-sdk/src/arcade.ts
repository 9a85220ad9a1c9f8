import { randomUUID } from 'node:crypto';
import type { LeaderList, PlayRequest, ScoreRequest, TournamentList } from '@coinop/protocol';
import { HttpClient } from './http-client.js';
import { resolveOptions, type ArcadeOptions } from './options.js';
import { PlayerTokenVerifier } from './player-token.js';
import type {
  BoardAround,
  BoardPage,
  Game,
  Leader,
  Leaderboard,
  PayoutsPage,
  Play,
  PlayerDetails,
  PlayerIdentity,
  PlayTransaction,
  ScoreResult,
  TopScore,
  Tournament,
  TournamentEntry,
} from './types.js';
import { WriteTokens } from './write-token.js';

/**
 * Options of a call that changes something: the key that makes repeating it safe.
 *
 * @example
 * ```ts
 * import type { IdempotentCallOptions } from '@coinop/server-sdk';
 * // One key per game session: a crash and a retry of the whole handler still charge once.
 * const options: IdempotentCallOptions = { idempotencyKey: `session-${sessionId}` };
 * const play = await arcade.play(playerId, leaderboardId, options);
 * ```
 */
export interface IdempotentCallOptions {
  /**
   * Sent as `Idempotency-Key`: the server answers a repeat with the first result instead of
   * acting again. Default: a new random UUID per call, reused by that call's own retries.
   */
  readonly idempotencyKey?: string;
}

/**
 * Options of `score`: an idempotency key, and the run's replay for the game's verifier.
 *
 * @example
 * ```ts
 * import type { ScoreOptions } from '@coinop/server-sdk';
 * const options: ScoreOptions = { replay: JSON.stringify({ moves: 'LLRUD' }) };
 * ```
 */
export interface ScoreOptions extends IdempotentCallOptions {
  /**
   * What the game recorded of the run, in a format it chooses, for the game's verifier (issue
   * 30): at most the arcade's `--replay-max-bytes` (64 KiB by default) in UTF-8, else
   * {@link ArcadeApiError} 413 `replay_too_large`. A tier that requires replays refuses a score
   * without one (422 `replay_required`) or one that does not earn it (422 `replay_rejected`);
   * the play then stays open for another score.
   */
  readonly replay?: string;
}

/**
 * Which page of payouts to read.
 *
 * @example
 * ```ts
 * import type { PayoutsOptions } from '@coinop/server-sdk';
 * const options: PayoutsOptions = { limit: 10, startingAfter: lastSeenEventId };
 * const page = await arcade.payouts(playerId, options);
 * ```
 */
export interface PayoutsOptions {
  /** Events per page, 1 to 100. Default 100. */
  readonly limit?: number;
  /** Continue after this event id, toward older events. */
  readonly startingAfter?: string;
  /** The page before this event id, toward newer events. */
  readonly endingBefore?: string;
}

/**
 * Which page of a board to read.
 *
 * @example
 * ```ts
 * import type { BoardPageOptions } from '@coinop/server-sdk';
 * const options: BoardPageOptions = { limit: 50, cursor: previous.nextCursor ?? undefined };
 * const page = await arcade.boardPage(leaderboardId, options);
 * ```
 */
export interface BoardPageOptions {
  /** Rows per page, 1 to 100. Default 25. */
  readonly limit?: number;
  /** The previous page's `nextCursor`; from the top when absent. */
  readonly cursor?: string;
}

const PAYOUTS_LIMIT_MAX = 100;
const BOARD_LIMIT_MAX = 100;
const AROUND_COUNT_MAX = 50;
const IDEMPOTENCY_KEY_MAX_CHARS = 255;

/**
 * One game on one arcade, as its authoritative game server sees it: validates player tokens,
 * locks a tier's cost when a play starts, submits the score when it ends (spec 4.1), and reads
 * leaders, payouts, plays and players. It keeps a write token and replaces it before it expires.
 * Calls that are safe to repeat are retried on network failures and 5xx; `play` and `score` carry
 * an idempotency key, so a retry never charges or scores twice. Errors are {@link ArcadeError}s.
 *
 * @example
 * ```ts
 * import { Arcade } from '@coinop/server-sdk';
 * const arcade = await Arcade.build({
 *   clientId: process.env.COINOP_CLIENT_ID ?? '',
 *   clientSecret: process.env.COINOP_CLIENT_SECRET ?? '',
 *   baseUrl: 'https://api.arcade.example.com',
 *   authUrl: 'https://auth.arcade.example.com',
 * });
 * const { playerId } = await arcade.validatePlayerToken(tokenFromTheGameClient);
 * const play = await arcade.play(playerId, arcade.game.leaderboards[0]!.id);
 * const result = await arcade.score(play, 1200);
 * ```
 */
export class Arcade {
  /** The arcade's id, from the write token. */
  readonly arcadeId: string;
  /** The game's id, from the write token. */
  readonly gameId: string;
  /** The developer's id, from the write token. */
  readonly developerId: string;
  readonly #http: HttpClient;
  readonly #tokens: WriteTokens;
  readonly #players: PlayerTokenVerifier;
  #game: Game;

  private constructor(
    parts: { http: HttpClient; tokens: WriteTokens; players: PlayerTokenVerifier; game: Game },
    ids: { arcadeId: string; gameId: string; developerId: string },
  ) {
    this.#http = parts.http;
    this.#tokens = parts.tokens;
    this.#players = parts.players;
    this.#game = parts.game;
    this.arcadeId = ids.arcadeId;
    this.gameId = ids.gameId;
    this.developerId = ids.developerId;
  }

  /**
   * Connects to the arcade: exchanges the client credentials for a write token (spec 4.2) and
   * loads the game with its tiers (spec 4.3). Throws `TypeError` for a missing or malformed
   * option, {@link ArcadeApiError} `invalid_client_credentials` for wrong credentials.
   *
   * @example
   * ```ts
   * import { Arcade } from '@coinop/server-sdk';
   * const arcade = await Arcade.build({
   *   clientId: 'cid_…',
   *   clientSecret: 'csec_…',
   *   baseUrl: 'http://localhost:8080',
   *   authUrl: 'http://localhost:8081',
   * });
   * console.log(arcade.game.name, arcade.game.leaderboards.length);
   * ```
   */
  static async build(options: ArcadeOptions): Promise<Arcade> {
    const resolved = resolveOptions(options);
    const http = new HttpClient(resolved.baseUrl, resolved);
    const tokens = new WriteTokens(http, resolved, resolved.clock, resolved.refreshAtLifeFraction);
    const token = await tokens.current();
    const players = new PlayerTokenVerifier(resolved);
    const game = await http.send<Game>(
      { method: 'GET', path: developerGamePath(token.arcadeId, token.gameId), isRetrySafe: true },
      tokens,
    );
    return new Arcade({ http, tokens, players, game }, token);
  }

  /**
   * The game with its tiers and their leaders: as loaded by `build`, and updated by every
   * `leaderboards()` call.
   *
   * @example
   * ```ts
   * const tierNames = arcade.game.leaderboards.map((tier) => tier.name);
   * ```
   */
  get game(): Game {
    return this.#game;
  }

  /**
   * Checks a player token (spec 5.3): RS256 signature by a key the sign-in service publishes,
   * `iss` equal to the issuer, `exp` in the future, a player id claim, and that the token is
   * for this game (a login naming this game's id; another game's token is refused). Throws a
   * {@link PlayerTokenError} subclass naming the failed check, or {@link ArcadeNetworkError} when
   * the keys cannot be fetched.
   *
   * @example
   * ```ts
   * import { PlayerTokenError } from '@coinop/server-sdk';
   * const bearer = request.headers.authorization?.replace(/^Bearer /, '');
   * const player = await arcade.validatePlayerToken(bearer).catch((error: unknown) => {
   *   if (error instanceof PlayerTokenError) return null; // answer 401
   *   throw error;
   * });
   * ```
   */
  validatePlayerToken(token: string | null | undefined): Promise<PlayerIdentity> {
    return this.#players.validate(token, this.gameId);
  }

  /**
   * The game's tiers with their current leaders (spec 4.3), for the player to choose one.
   *
   * @example
   * ```ts
   * const tiers = await arcade.leaderboards();
   * const options = tiers.map((t) => ({ value: t.id, label: `${t.name} (${t.formattedCostString})` }));
   * ```
   */
  async leaderboards(): Promise<readonly Leaderboard[]> {
    this.#game = await this.#get<Game>(developerGamePath(this.arcadeId, this.gameId));
    return this.#game.leaderboards;
  }

  /**
   * Starts a play (spec 4.4): locks the tier's cost from the player. Throws
   * {@link ArcadeApiError} `insufficient_funds` (402) when the player cannot pay. The request
   * always carries an idempotency key, so a retry after a timeout never charges twice.
   *
   * @example
   * ```ts
   * const play = await arcade.play(playerId, leaderboardId);
   * // Let the player start only now (spec 4.10 rule 2); keep play for the score.
   * ```
   */
  async play(
    playerId: string,
    leaderboardId: string,
    options: IdempotentCallOptions = {},
  ): Promise<Play> {
    return this.#send<Play>({
      method: 'POST',
      path: this.#gamePath('play'),
      body: {
        playerId: id(playerId, 'playerId'),
        leaderboardId: id(leaderboardId, 'leaderboardId'),
      } satisfies PlayRequest,
      idempotencyKey: idempotencyKey(options),
      isRetrySafe: true,
    });
  }

  /**
   * Submits the score of a play (spec 4.5), once: the locked cost is settled to the leaders, the
   * developer and the arcade. Idempotent like `play`. A score the game's rules refuse (422
   * `score_out_of_bounds`, `score_too_fast`, `replay_required`, `replay_rejected`) moves no HST
   * and leaves the play open (docs/concepts/score-integrity.md).
   *
   * @example
   * ```ts
   * const result = await arcade.score(play, 1200, { replay: JSON.stringify(moves) });
   * console.log(result.isWinner ? `rank ${result.leaderRank}` : 'not a leader this time');
   * ```
   */
  async score(
    play: Pick<Play, 'id' | 'leaderboardId'>,
    score: number,
    options: ScoreOptions = {},
  ): Promise<ScoreResult> {
    if (typeof play !== 'object' || play === null) {
      throw new TypeError('play must be the play record that arcade.play returned');
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) {
      throw new TypeError(`score must be a finite number, got ${String(score)}`);
    }
    const { replay } = options;
    if (replay !== undefined && typeof replay !== 'string') {
      throw new TypeError(`options.replay must be a string, got ${typeof replay}`);
    }
    return this.#send<ScoreResult>({
      method: 'POST',
      path: this.#gamePath('score'),
      body: {
        playId: id(play.id, 'play.id'),
        leaderboardId: id(play.leaderboardId, 'play.leaderboardId'),
        score,
        ...(replay === undefined ? {} : { replay }),
      } satisfies ScoreRequest,
      idempotencyKey: idempotencyKey(options),
      isRetrySafe: true,
    });
  }

  /**
   * The game's tournaments, newest first, each with its current round. A play on a round passes
   * the round's id (or the tournament's: its round open now) to `play` as the leaderboard id; the
   * arcade refuses it with {@link ArcadeApiError} 409 `tournament_not_started`,
   * `tournament_closed`, `tournament_full` or `tournament_attempts_exhausted` (nothing charged).
   *
   * @example
   * ```ts
   * const [cup] = await arcade.tournaments();
   * if (cup?.currentRound?.status === 'open') {
   *   const play = await arcade.play(playerId, cup.currentRound.id);
   *   await arcade.score(play, 1200);
   * }
   * ```
   */
  async tournaments(): Promise<readonly Tournament[]> {
    return (await this.#get<TournamentList>(this.#gamePath('tournaments'))).tournaments;
  }

  /**
   * A player's entry in a round of one of the game's tournaments: attempts used and left, and
   * their rank and best on the round (null until they score). The round is `roundId` when given,
   * else the current one. A player who has not played the round yet is `entered: false` with
   * 0 attempts. Throws {@link ArcadeApiError} 404 `tournament_not_found` (also another game's
   * tournament) or `tournament_round_not_found`.
   *
   * @example
   * ```ts
   * const entry = await arcade.tournamentEntry(cup.id, playerId);
   * if (entry.attemptsLeft === 0) console.log('no attempts left this round');
   * else console.log(entry.rank === null ? 'not ranked yet' : `you are #${entry.rank}`);
   * ```
   */
  async tournamentEntry(
    tournamentId: string,
    playerId: string,
    options: { readonly roundId?: string } = {},
  ): Promise<TournamentEntry> {
    const { roundId } = options;
    const path = this.#gamePath(
      'tournaments',
      id(tournamentId, 'tournamentId'),
      'players',
      id(playerId, 'playerId'),
      'entry',
    );
    return this.#get<TournamentEntry>(path, {
      roundId: roundId === undefined ? undefined : id(roundId, 'roundId'),
    });
  }

  /**
   * The current leaders of a tier, best first.
   *
   * @example
   * ```ts
   * const leaders = await arcade.leaders(leaderboardId);
   * leaders.forEach((l, i) => console.log(`${i + 1}. ${l.name} ${l.score}`));
   * ```
   */
  async leaders(leaderboardId: string): Promise<readonly Leader[]> {
    const path = this.#gamePath('leaders', id(leaderboardId, 'leaderboardId'));
    return (await this.#get<LeaderList>(path)).leaders;
  }

  /**
   * A page of a tier's board with exact ranks, best first. Pass `nextCursor` back as `cursor`
   * for the next page: a walk returns every player on the board at its first page exactly once,
   * each with their exact rank when their page is read; a walk older than ten minutes is refused
   * with 410 `cursor_expired` (see the README on paging).
   *
   * @example
   * ```ts
   * let page = await arcade.boardPage(leaderboardId, { limit: 100 });
   * for (;;) {
   *   page.entries.forEach((e) => console.log(`#${e.rank} ${e.name} ${e.score}`));
   *   if (page.nextCursor === null) break;
   *   page = await arcade.boardPage(leaderboardId, { limit: 100, cursor: page.nextCursor });
   * }
   * ```
   */
  async boardPage(leaderboardId: string, options: BoardPageOptions = {}): Promise<BoardPage> {
    const { limit, cursor } = options;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > BOARD_LIMIT_MAX)) {
      throw new TypeError(`limit must be an integer from 1 to ${BOARD_LIMIT_MAX}`);
    }
    return this.#get<BoardPage>(this.#gamePath('boards', id(leaderboardId, 'leaderboardId')), {
      limit: limit?.toString(),
      cursor,
    });
  }

  /**
   * A player's exact rank on a tier with up to `count` (default 5, at most 50) players just
   * above and below; `player` is null when they have no score on the tier.
   *
   * @example
   * ```ts
   * const { above, player, below } = await arcade.boardAround(leaderboardId, playerId);
   * console.log(player === null ? 'no score yet' : `you are #${player.rank}`);
   * ```
   */
  async boardAround(
    leaderboardId: string,
    playerId: string,
    options: { readonly count?: number } = {},
  ): Promise<BoardAround> {
    const { count } = options;
    if (
      count !== undefined &&
      (!Number.isInteger(count) || count < 0 || count > AROUND_COUNT_MAX)
    ) {
      throw new TypeError(`count must be an integer from 0 to ${AROUND_COUNT_MAX}`);
    }
    return this.#get<BoardAround>(
      this.#gamePath(
        'boards',
        id(leaderboardId, 'leaderboardId'),
        'players',
        id(playerId, 'playerId'),
      ),
      { count: count?.toString() },
    );
  }

  /**
   * A player's best score on a tier and its rank (both null before their first score there).
   *
   * @example
   * ```ts
   * const best = await arcade.topScore(leaderboardId, playerId);
   * console.log(best.value === null ? 'first game!' : `best ${best.value}, rank ${best.rank}`);
   * ```
   */
  async topScore(leaderboardId: string, playerId: string): Promise<TopScore> {
    return this.#get<TopScore>(
      this.#gamePath('topscore', id(leaderboardId, 'leaderboardId'), id(playerId, 'playerId')),
    );
  }

  /**
   * Payouts a player received from this game as a leader, newest first, a page at a time.
   *
   * @example
   * ```ts
   * let page = await arcade.payouts(playerId, { limit: 50 });
   * while (page.endingBefore !== null) {
   *   page = await arcade.payouts(playerId, { limit: 50, startingAfter: page.endingBefore });
   * }
   * ```
   */
  async payouts(playerId: string, options: PayoutsOptions = {}): Promise<PayoutsPage> {
    const { limit, startingAfter, endingBefore } = options;
    if (
      limit !== undefined &&
      (!Number.isInteger(limit) || limit < 1 || limit > PAYOUTS_LIMIT_MAX)
    ) {
      throw new TypeError(`limit must be an integer from 1 to ${PAYOUTS_LIMIT_MAX}`);
    }
    return this.#get<PayoutsPage>(this.#gamePath('payouts', id(playerId, 'playerId')), {
      limit: limit?.toString(),
      starting_after: startingAfter === undefined ? undefined : id(startingAfter, 'startingAfter'),
      ending_before: endingBefore === undefined ? undefined : id(endingBefore, 'endingBefore'),
    });
  }

  /**
   * A play record by its id, with its status (open, scored or expired).
   *
   * @example
   * ```ts
   * const { status } = await arcade.playById(play.id);
   * ```
   */
  async playById(playId: string): Promise<Play> {
    return this.#get<Play>(this.#gamePath('play', id(playId, 'playId')));
  }

  /**
   * The ledger transfer that locked a play's cost, and whether it is pending, posted or voided.
   *
   * @example
   * ```ts
   * const lock = await arcade.playTransaction(play.id);
   * console.log(`${lock.amount} HST ${lock.status}`);
   * ```
   */
  async playTransaction(playId: string): Promise<PlayTransaction> {
    return this.#get<PlayTransaction>(this.#gamePath('play', id(playId, 'playId'), 'transaction'));
  }

  /**
   * A player's name, avatar and HST balance, for example to offer only the tiers they can pay.
   *
   * @example
   * ```ts
   * const { balance } = await arcade.playerDetails(playerId);
   * const affordable = arcade.game.leaderboards.filter((t) => t.cost <= balance);
   * ```
   */
  async playerDetails(playerId: string): Promise<PlayerDetails> {
    return this.#get<PlayerDetails>(
      `/players/${encodeURIComponent(id(playerId, 'playerId'))}/details`,
    );
  }

  #gamePath(...segments: string[]): string {
    const path = [this.arcadeId, 'games', this.gameId, ...segments].map(encodeURIComponent);
    return `/arcades/${path.join('/')}`;
  }

  #get<T>(path: string, query?: Record<string, string | undefined>): Promise<T> {
    return this.#send<T>({ method: 'GET', path, isRetrySafe: true, ...(query ? { query } : {}) });
  }

  #send<T>(call: Parameters<HttpClient['send']>[0]): Promise<T> {
    return this.#http.send<T>(call, this.#tokens);
  }
}

function developerGamePath(arcadeId: string, gameId: string): string {
  return `/arcades/${encodeURIComponent(arcadeId)}/developergames/${encodeURIComponent(gameId)}`;
}

/** An id the caller passed: a non-empty string, else misuse. */
function id(value: unknown, name: string): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`${name} must be a non-empty string id`);
  }
  return value;
}

function idempotencyKey(options: IdempotentCallOptions): string {
  const key = options.idempotencyKey ?? randomUUID();
  if (typeof key !== 'string' || key === '' || key.length > IDEMPOTENCY_KEY_MAX_CHARS) {
    throw new TypeError(`idempotencyKey must be 1 to ${IDEMPOTENCY_KEY_MAX_CHARS} characters`);
  }
  return key;
}
