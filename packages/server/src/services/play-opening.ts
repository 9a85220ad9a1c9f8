import {
  CoinopError,
  InsufficientFundsError,
  allowanceDay,
  assertConsentFrom,
  availableUnits,
  chargeRefusal,
  playerActor,
  playExpiresAt,
  type GameRef,
  type Leaderboard,
} from '@coinop/core';
import { drawPlaySeed } from '../credentials/play-seeds.js';
import type { Queryable } from '../store/db.js';
import { AllowanceRaced, IdempotencyKeyTaken } from '../store/errors.js';
import { findAccount } from '../store/ledger.js';
import {
  openFreePlay,
  openPaidPlays,
  type ConsentPolicy,
  type OpenPlayRow,
} from '../store/open-plays.js';
import { findPlayByIdempotencyKey, type StoredPlay } from '../store/plays.js';
import { enterRound } from '../store/tournament-entries.js';

import { GroupCommit } from './group-commit.js';
import {
  BATCH_MAX,
  digest,
  keyReused,
  recordApproval,
  type OpenPlayInput,
  type PlayPathDeps,
} from './play-requests.js';

/**
 * Opening plays: the tier's cost is locked in the play's escrow, within the player's balance and
 * consent, in one statement; server-to-server paid plays are group-committed.
 */
export class PlayOpening {
  readonly #deps: PlayPathDeps;
  /** Server-to-server paid plays, group-committed (of any game). */
  readonly #plays: GroupCommit<PlayItem, OpenPlayRow>;

  constructor(deps: PlayPathDeps) {
    this.#deps = deps;
    // A batch of plays is one statement; one that fails as a whole (say, a retry racing on an
    // idempotency key) opens its plays again one by one.
    this.#plays = new GroupCommit({
      maxBatch: BATCH_MAX,
      maxInFlight: deps.db.ordered.depth,
      key: (item) => item.play.playerId,
      commit: async (batch) =>
        (await openPaidPlays(this.#deps.db.ordered, batch, this.#consent())).map((row) => ({
          ok: true,
          value: row,
        })),
      commitAlone: (item) => item.alone(),
      onBatch: (size) => deps.metrics?.batchCommitted('plays', size),
    });
    deps.metrics?.watchQueue('plays', this.#plays);
  }

  /**
   * Opens a play: the player must exist and be able to spend the tier's cost, which is locked
   * (a pending transfer) into the play's escrow. With an idempotency key, a retry returns the
   * play the first call opened instead of charging again. The tier is priced from this
   * process's game cache; the statement that opens the play checks it is still so priced, and
   * if another API process changed it, the tier is read again and the play opened afresh. The
   * game must be allowed to charge the player (docs/concepts/consent.md); the same statement
   * checks and spends the allowance.
   */
  async open(input: OpenPlayInput): Promise<StoredPlay> {
    if (input.approval !== undefined) {
      // A signed play carries its own consent: the signature must be the play's own player's.
      assertConsentFrom(
        { kind: 'signed_approval', playerId: input.playerId, gameId: input.gameId },
        playerActor(input.approval.playerId, 'player_signature'),
      );
    }
    // A signed play is not priced afresh: the player approved one cost.
    const tierAttempts = input.approval === undefined ? OPEN_ATTEMPTS : 1;
    let tierChanges = 0;
    let consentRaces = 0;
    for (;;) {
      const opened = await this.#openOnce(input);
      if (opened === CONSENT_RACED) {
        // Another process's play spent the allowance, or the player revoked it, as this one
        // spent it: each race follows a committed change, so deciding again settles it.
        if (++consentRaces < CONSENT_ATTEMPTS) continue;
        throw new CoinopError(
          'service_unavailable',
          `plays of player ${input.playerId} kept racing for one allowance; nothing was charged, retry`,
        );
      }
      if (opened !== TIER_CHANGED) return opened;
      this.#deps.games.invalidate(input.gameId);
      if (++tierChanges >= tierAttempts) {
        throw new CoinopError(
          'leaderboard_changed',
          `leaderboardId ${input.leaderboardId} changed while the play was being opened; nothing was charged`,
          { details: { field: 'leaderboardId', leaderboardId: input.leaderboardId } },
        );
      }
    }
  }

  async #openOnce(
    input: OpenPlayInput,
  ): Promise<StoredPlay | typeof TIER_CHANGED | typeof CONSENT_RACED> {
    const requestHash = digest([input.playerId, input.leaderboardId]);
    if (input.idempotencyKey !== null) {
      const earlier = await findPlayByIdempotencyKey(
        this.#deps.db,
        input.gameId,
        input.idempotencyKey,
      );
      if (earlier) return replayedPlay(earlier, requestHash);
    }
    const now = this.#deps.clock.now();
    const { game, board } = await this.#deps.games.boardForNewPlay(
      input.gameId,
      input.leaderboardId,
      now,
    );
    if (input.approval !== undefined && input.approval.costUnits !== board.costUnits) {
      return TIER_CHANGED;
    }
    const play = this.#newPlay(input, game, board, now, requestHash);
    let opened;
    try {
      opened = await this.#writePlay(play, board, now, input.approval);
    } catch (error) {
      // Two identical retries raced; the other one opened the play.
      if (input.idempotencyKey !== null && error instanceof IdempotencyKeyTaken) {
        const earlier = await findPlayByIdempotencyKey(
          this.#deps.db,
          input.gameId,
          input.idempotencyKey,
        );
        if (earlier) return replayedPlay(earlier, requestHash);
      }
      if (error instanceof AllowanceRaced) return CONSENT_RACED;
      throw error;
    }
    return this.#openedPlay(input, play, game, board, opened);
  }

  /** The play to open on `board` now, with its ids, cost and expiry; not yet written. */
  #newPlay(
    input: OpenPlayInput,
    game: GameRef,
    board: Leaderboard,
    now: Date,
    requestHash: string,
  ): StoredPlay {
    return {
      id: this.#deps.ids.next(),
      arcadeId: game.arcadeId,
      gameId: game.id,
      developerId: game.developerId,
      leaderboardId: board.id,
      playerId: input.playerId,
      costUnits: board.costUnits,
      lockTransferId: board.costUnits > 0n ? this.#deps.ids.next() : null,
      vaultAccountId: null,
      leaderPlayerIds: [],
      status: 'open',
      // On a round, never past the round's end: the close settles a play still open then.
      expiresAt: playExpiresAt(board, now, this.#deps.policy.playTtlSeconds),
      createdAt: now,
      updatedAt: now,
      idempotencyKey: input.idempotencyKey,
      requestHash,
      seed: drawPlaySeed(),
      // A play the player signed is theirs to score; any other, its game server's.
      openedBy: input.approval === undefined ? 'game_server' : 'player',
    };
  }

  /** Writes the play by the way its board and approval call for; the statement's answer. */
  async #writePlay(
    play: StoredPlay,
    board: Leaderboard,
    now: Date,
    approval: OpenPlayInput['approval'],
  ): Promise<OpenPlayRow> {
    const signed = approval !== undefined;
    const openIn = async (q: Queryable) =>
      play.lockTransferId === null
        ? openFreePlay(q, play, board.leadersMax)
        : openPaidPlays(q, [{ play, leadersMax: board.leadersMax, signed }], this.#consent()).then(
            ([row]) => {
              if (!row) throw new TypeError(`no answer for play ${play.id}`);
              return row;
            },
          );
    const openAlone = () =>
      play.lockTransferId === null
        ? openIn(this.#deps.db)
        : this.#plays.submit({
            play,
            leadersMax: board.leadersMax,
            signed,
            alone: () => openIn(this.#deps.db),
          });
    // Server-to-server plays on tiers are group-committed (`#plays`); an approved play
    // records its signature with it, in a transaction of its own. A play on a tournament
    // round is counted as an entry in the transaction that opens it: a refusal, or a play
    // that does not open, undoes the count (docs/concepts/tournaments.md, "Entering").
    return board.round !== undefined
      ? await this.#openOnRound(board.id, play, now, openIn, approval)
      : approval === undefined
        ? await openAlone()
        : await this.#deps.db.transaction(async (tx) => {
            const result = await openIn(tx);
            if (result.tierCurrent && result.leaderPlayerIds !== null) {
              await recordApproval(tx, approval, 'play', play.id, now, this.#deps.ids.next());
            }
            return result;
          });
  }

  /**
   * The opened play, or why the statement did not open it: no such player, a changed tier, the
   * player's consent refused, or too little to spend. Remembers an opened play for its score.
   */
  async #openedPlay(
    input: OpenPlayInput,
    play: StoredPlay,
    game: GameRef,
    board: Leaderboard,
    opened: OpenPlayRow,
  ): Promise<StoredPlay | typeof TIER_CHANGED> {
    if (opened.playerAccountId === null) {
      throw new CoinopError('player_not_found', `player ${input.playerId} does not exist`, {
        details: { field: 'playerId', playerId: input.playerId },
      });
    }
    if (!opened.tierCurrent) return TIER_CHANGED;
    if (opened.refusal !== null) {
      throw chargeRefusal(opened.refusal, {
        gameId: game.id,
        playerId: input.playerId,
        costUnits: board.costUnits,
        grantUrl: this.#deps.policy.grantUrl(game.id),
      });
    }
    if (opened.leaderPlayerIds === null) {
      // Nothing was written: the conditional debit found less than the cost to spend.
      const account = await findAccount(this.#deps.db, opened.playerAccountId);
      // Named by the playerId the caller sent: the account id is the arcade's own.
      throw new InsufficientFundsError(
        opened.playerAccountId,
        account ? availableUnits(account) : 0n,
        board.costUnits,
        { playerId: input.playerId },
      );
    }
    const result = { ...play, leaderPlayerIds: opened.leaderPlayerIds };
    // The player's balance moved: their open pages show it now, whoever opened the play (a game
    // server's play is otherwise unknown to the page until its score).
    if (play.costUnits > 0n) this.#deps.live?.touched([], [opened.playerAccountId]);
    if (opened.player !== undefined) {
      this.#deps.memory.rememberPlay({
        play: result,
        playerAccountId: opened.playerAccountId,
        playerName: opened.player.name,
        playerAvatarUrl: opened.player.avatarUrl,
      });
    }
    return result;
  }

  /**
   * Opens a play on a round in one transaction: the entry first (`enterRound` locks the round
   * and refuses by the round's window and limits), then the play. A play the statement did not
   * open (funds, consent, a changed board) rolls the entry back with it.
   */
  async #openOnRound(
    roundId: string,
    play: StoredPlay,
    now: Date,
    openIn: (q: Queryable) => Promise<OpenPlayRow>,
    approval: OpenPlayInput['approval'],
  ): Promise<OpenPlayRow> {
    try {
      return await this.#deps.db.transaction(async (tx) => {
        await enterRound(tx, roundId, play.playerId, now);
        const result = await openIn(tx);
        const isOpened =
          result.playerAccountId !== null &&
          result.tierCurrent &&
          result.refusal === null &&
          result.leaderPlayerIds !== null;
        if (!isOpened) throw new PlayNotOpened(result);
        if (approval !== undefined) {
          await recordApproval(tx, approval, 'play', play.id, now, this.#deps.ids.next());
        }
        return result;
      });
    } catch (error) {
      if (error instanceof PlayNotOpened) return error.result;
      throw error;
    }
  }

  /** The consent policy a play statement applies now. */
  #consent(): ConsentPolicy {
    return {
      defaultAllowanceUnits: this.#deps.policy.defaultAllowanceUnits,
      day: allowanceDay(this.#deps.clock.now()),
    };
  }
}

/** Thrown inside a round play's transaction to roll its entry back; carries why. */
class PlayNotOpened extends Error {
  constructor(readonly result: OpenPlayRow) {
    super('the play did not open');
  }
}

/** A play's allowance spend raced another process's (or a revocation): decide it again. */
const CONSENT_RACED = Symbol('consent raced');
/** Each consent race follows a committed spend or revocation; a few always settle it. */
const CONSENT_ATTEMPTS = 5;

/** How many times a play is priced afresh when another process keeps changing its tier. */
const OPEN_ATTEMPTS = 3;
const TIER_CHANGED = Symbol('tier changed');

interface PlayItem {
  readonly play: StoredPlay;
  readonly leadersMax: number;
  /** The player approved this play with a wallet signature: it needs no allowance. */
  readonly signed: boolean;
  /** Opens this play in a statement of its own. */
  alone(): Promise<OpenPlayRow>;
}

function replayedPlay(earlier: StoredPlay, requestHash: string): StoredPlay {
  if (earlier.requestHash !== requestHash) throw keyReused(earlier.idempotencyKey ?? '');
  return earlier;
}
