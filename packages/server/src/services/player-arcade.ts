import {
  CoinopError,
  allowanceDay,
  assertConsentFrom,
  chargeRefusal,
  chargeVerdict,
  playerActor,
  type Leaderboard,
  type Units,
} from '@coinop/core';
import { approvalMessage, type ApprovalFields, type FaucetGrant } from '@coinop/protocol';
import type { Hex } from 'viem';
import { findApproval, insertApproval, insertPurchase } from '../store/approvals.js';
import { consentFacts } from '../store/consent.js';
import type { Queryable } from '../store/db.js';
import { applyTransfers } from '../store/ledger.js';
import type { StoredPlay } from '../store/plays.js';
import type { PlayerRecord } from '../store/players.js';
import type { WalletVerifier } from '../credentials/wallet-signature.js';
import type { ChainPlayView } from '../chain/chain-play-requests.js';
import { playPolicy, type ArcadeServices } from './arcade-services.js';
import type { GameView } from './game-reads.js';
import { PlayerFaucet } from './player-faucet.js';
import type { ScoreOutcome, SignedApproval } from './plays.js';

/** A client-side request as the arcade web app sends it: the fields, a nonce and the signature. */
export interface Signed {
  readonly nonce: string;
  readonly signature: string;
}

/**
 * Client-side play (spec 1.4 client style, 4.10): what the arcade web app does for the signed-in
 * player when the game in its iframe asks. Every play, score and payment carries the player's
 * wallet signature over `approvalMessage(...)`, which is checked here and recorded with what it
 * approved, in the same transaction.
 */
export class PlayerArcade {
  readonly #arcade: ArcadeServices;
  readonly #wallets: WalletVerifier;
  readonly #faucet: PlayerFaucet;

  constructor(arcade: ArcadeServices, wallets: WalletVerifier) {
    this.#arcade = arcade;
    this.#wallets = wallets;
    this.#faucet = new PlayerFaucet(arcade);
  }

  /** Locks the tier's cost for a play of a published game, or of one the player previews. */
  async openPlay(
    playerId: string,
    input: Signed & { gameId: string; leaderboardId: string },
  ): Promise<StoredPlay> {
    const { view, board } = await this.#playableTier(input.gameId, playerId, input.leaderboardId);
    const approval = await this.#checkApproval(playerId, input, {
      kind: 'play',
      gameId: view.game.id,
      gameName: view.game.name,
      leaderboardId: board.id,
      tierName: board.name,
      costUnits: board.costUnits,
      nonce: input.nonce,
    });
    return this.#arcade.plays.open({
      gameId: view.game.id,
      playerId,
      leaderboardId: board.id,
      idempotencyKey: clientKey(playerId, input.nonce),
      approval: { ...approval, costUnits: board.costUnits },
    });
  }

  /**
   * Asks the player's wallet to lock the tier's cost in the vault (chain mode): a play id and the
   * amount, which the web app passes to the vault's `lockPlay`. The play opens once the lock is
   * confirmed; nothing is charged before.
   */
  async requestChainPlay(
    playerId: string,
    input: { gameId: string; leaderboardId: string },
  ): Promise<ChainPlayView> {
    const { view, board } = await this.#playableTier(input.gameId, playerId, input.leaderboardId);
    if (board.round !== undefined) {
      // A round's fees go to its pool, paid at the close: a vault lock pays out at the score.
      throw new CoinopError(
        'tournament_chain_play_refused',
        `leaderboardId ${input.leaderboardId} is a tournament round: its plays are locked from the arcade balance (POST /player/games/{gameId}/plays), not on chain`,
        { details: { field: 'leaderboardId', leaderboardId: input.leaderboardId } },
      );
    }
    return this.#arcade.chainPlays.request({ playerId, gameId: view.game.id, board });
  }

  /** The player's own play locked on chain. */
  chainPlay(playerId: string, playId: string): Promise<ChainPlayView> {
    return this.#arcade.chainPlays.get(playerId, playId);
  }

  /** Scores one of the player's own plays. */
  async submitScore(
    playerId: string,
    input: Signed & { gameId: string; playId: string; score: number; replay?: string },
  ): Promise<ScoreOutcome> {
    const view = await this.visibleGame(input.gameId, playerId);
    const approval = await this.#checkApproval(playerId, input, {
      kind: 'score',
      gameId: view.game.id,
      gameName: view.game.name,
      playId: input.playId,
      score: input.score,
      nonce: input.nonce,
    });
    const outcome = await this.#arcade.plays.score({
      gameId: view.game.id,
      playId: input.playId,
      leaderboardId: null,
      score: input.score,
      replay: input.replay ?? null,
      idempotencyKey: clientKey(playerId, input.nonce),
      approval,
    });
    if (!outcome.replayed) this.#arcade.reads.invalidate(view.game.id);
    return outcome;
  }

  /**
   * Pays `amountUnits` from the player to the game's developer (spec 4.10 `hstTransfer`): one
   * posted transfer. A retry with the same nonce returns the first transfer's id.
   */
  async purchase(
    playerId: string,
    input: Signed & { gameId: string; amountUnits: Units },
  ): Promise<{ transferId: string; replayed: boolean }> {
    if (input.amountUnits <= 0n) {
      throw new CoinopError('invalid_amount', 'amount must be greater than 0', {
        details: { field: 'amount' },
      });
    }
    const view = await this.visibleGame(input.gameId, playerId);
    const game = await this.#arcade.games.get(view.game.id);
    const approval = await this.#checkApproval(playerId, input, {
      kind: 'purchase',
      gameId: view.game.id,
      gameName: view.game.name,
      amountUnits: input.amountUnits,
      nonce: input.nonce,
    });
    assertConsentFrom(
      { kind: 'signed_approval', playerId, gameId: view.game.id },
      playerActor(approval.playerId, 'player_signature'),
    );
    const player = await this.#arcade.reads.player(playerId);
    const { db, clock, ids } = this.#arcade;
    const transferId = ids.next();
    return db.transaction(async (tx) => {
      const now = clock.now();
      const recorded = await insertApproval(tx, {
        ...approval,
        id: ids.next(),
        kind: 'purchase',
        subjectId: transferId,
        createdAt: now,
      });
      if (!recorded) {
        // The same nonce again: a retry of the same payment answers as the first did.
        const earlier = await findApproval(tx, playerId, 'purchase', input.nonce);
        if (earlier?.message !== approval.message) throw nonceReused(input.nonce, 'payment');
        return { transferId: earlier.subjectId, replayed: true };
      }
      await this.#assertMayCharge(tx, view.game.id, playerId, input.amountUnits, now);
      await applyTransfers(
        tx,
        [
          {
            id: transferId,
            kind: 'posted',
            debitAccountId: player.accountId,
            creditAccountId: game.developerAccountId,
            amount: input.amountUnits,
            pendingId: null,
            reason: 'payment',
            playId: null,
          },
        ],
        now,
      );
      await insertPurchase(tx, {
        transferId,
        gameId: view.game.id,
        playerId,
        amountUnits: input.amountUnits,
        createdAt: now,
      });
      return { transferId, replayed: false };
    });
  }

  /**
   * Refuses, in the payment's own transaction, a payment the game may not take: the rule a signed
   * play follows (`chargeVerdict`, the signature being the consent), so a suspended game takes
   * nothing (`403 game_suspended`). The game's row stays locked until the payment commits, so a
   * suspension cannot slip in between.
   */
  async #assertMayCharge(
    tx: Queryable,
    gameId: string,
    playerId: string,
    amountUnits: Units,
    now: Date,
  ): Promise<void> {
    const facts = await consentFacts(tx, gameId, playerId, allowanceDay(now), { lockGame: true });
    if (facts === null) throw new TypeError(`game ${gameId} or player ${playerId} vanished`);
    const verdict = chargeVerdict(facts, amountUnits, this.#arcade.config.defaultAllowanceUnits, {
      signed: true,
    });
    if (!verdict.ok) {
      throw chargeRefusal(verdict, {
        gameId,
        playerId,
        costUnits: amountUnits,
        grantUrl: playPolicy(this.#arcade.config).grantUrl(gameId),
      });
    }
  }

  /** Grants test HST in a development arcade, up to a ceiling (player-faucet.ts). */
  faucet(playerId: string): Promise<FaucetGrant> {
    return this.#faucet.grant(playerId);
  }

  /**
   * The game, if the player may play it in the arcade: a published game, or an unpublished one
   * its developer or an accepted tester previews (issue 17, 27): an invitation alone shows
   * nothing. The play statement checks the same consent rule again when it locks HST.
   */
  async visibleGame(gameId: string, playerId: string): Promise<GameView> {
    const view = await this.#arcade.reads.gameView(gameId);
    // To anyone else an unpublished game is not in the arcade.
    if (
      view.game.publishedAt === null &&
      (await this.#arcade.consent.facts(gameId, playerId))?.insider !== true
    ) {
      throw new CoinopError('game_not_found', `game ${gameId} is not in the arcade`, {
        details: { gameId },
      });
    }
    return view;
  }

  async #playableTier(
    gameId: string,
    playerId: string,
    leaderboardId: string,
  ): Promise<{ view: GameView; board: Leaderboard }> {
    let view = await this.visibleGame(gameId, playerId);
    let board = view.leaderboards.find((b) => b.id === leaderboardId);
    if (!board) {
      // A tier added a moment ago may not be in the cached view yet.
      this.#arcade.reads.invalidate(gameId);
      view = await this.visibleGame(gameId, playerId);
      board = view.leaderboards.find((b) => b.id === leaderboardId);
    }
    if (!board) {
      // A tournament's round (or a tournament's id: its round open now), which is not a tier.
      const named = await this.#arcade.games
        .boardForNewPlay(gameId, leaderboardId, this.#arcade.clock.now())
        .catch((error: unknown) => {
          if (error instanceof CoinopError && error.code === 'leaderboard_not_in_game') return null;
          throw error;
        });
      if (named?.board.round !== undefined) board = named.board;
    }
    if (!board) {
      throw new CoinopError(
        'leaderboard_not_in_game',
        `leaderboardId ${leaderboardId} is not a tier of game ${gameId}`,
        { details: { field: 'leaderboardId' } },
      );
    }
    return { view, board };
  }

  /** The approval, once the player's wallet is shown to have signed exactly this message. */
  async #checkApproval(
    playerId: string,
    signed: Signed,
    fields: ApprovalFields,
  ): Promise<SignedApproval> {
    const player: PlayerRecord = await this.#arcade.reads.player(playerId);
    const message = approvalMessage(fields);
    const refused = (why: string) =>
      new CoinopError('invalid_approval_signature', why, { details: { field: 'signature' } });
    if (player.wallet === null) throw refused(`player ${playerId} has no wallet to sign with`);
    let valid = false;
    try {
      valid = await this.#wallets.check({
        address: player.wallet as Hex,
        message,
        signature: signed.signature as Hex,
      });
    } catch {
      valid = false; // A malformed signature recovers no address.
    }
    if (!valid) {
      throw refused(
        `signature is not the ${fields.kind} approval of wallet ${player.wallet} for these ` +
          `fields; sign approvalMessage(${fields.kind}) with nonce ${signed.nonce}`,
      );
    }
    return {
      playerId,
      wallet: player.wallet,
      nonce: signed.nonce,
      message,
      signature: signed.signature,
    };
  }
}

/** Client-side requests share the games' idempotency keys, in a space no game server uses. */
function clientKey(playerId: string, nonce: string): string {
  return `arcade-client:${playerId}:${nonce}`;
}

function nonceReused(nonce: string, what: string): CoinopError {
  return new CoinopError(
    'idempotency_key_reused',
    `approval nonce ${nonce} was already used for another ${what}`,
    { details: { field: 'nonce' } },
  );
}
