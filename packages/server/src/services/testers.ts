import {
  CoinopError,
  allowanceDay,
  answeredAllowance,
  answeredInvitation,
  assertConsentFrom,
  removedAllowance,
  type Clock,
  type ConsentActor,
  type InvitationAnswer,
} from '@coinop/core';
import type { Db } from '../store/db.js';
import { setAllowance } from '../store/consent.js';
import { findGame } from '../store/games.js';
import { findPlayer, findPlayerByWallet, normalizeWallet } from '../store/players.js';
import {
  answerInvitation,
  findInvitation,
  findTester,
  invitationsOf,
  inviteTester,
  listTesters,
  removeTester,
  type InvitationRecord,
  type TesterRecord,
} from '../store/testers.js';

const WALLET = /^0x[0-9a-f]{40}$/;

/**
 * Testers of unpublished games (docs/concepts/consent.md, "Testers"): the developer invites a
 * wallet, which is no consent; the player with that wallet accepts with a daily allowance,
 * signed in as themself, and may decline or leave at any time. Accepting and leaving change
 * grants (the invitation and the allowance), so they go through the consent rule
 * (`assertConsentFrom`); inviting and withdrawing do not make any charge possible.
 */
export class TesterService {
  readonly #db: Db;
  readonly #clock: Clock;

  constructor(db: Db, clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** The game's invited wallets and where each stands. The caller checked the developer. */
  list(gameId: string): Promise<TesterRecord[]> {
    return listTesters(this.#db, gameId);
  }

  /** Invites the wallet; an existing invitation (and the player's answer to it) stands. */
  invite(gameId: string, wallet: string): Promise<TesterRecord> {
    return inviteTester(this.#db, gameId, testerWallet(wallet), this.#clock.now());
  }

  /**
   * Withdraws the invitation or removes the tester, whatever the player answered. A tester of an
   * unpublished game loses the allowance they accepted with, as leaving would (`removedAllowance`),
   * in the same transaction.
   */
  async remove(gameId: string, wallet: string): Promise<void> {
    const normalized = testerWallet(wallet);
    const removed = await this.#db.transaction(async (tx) => {
      const invitation = await findTester(tx, gameId, normalized, true);
      if (!invitation || !(await removeTester(tx, gameId, normalized))) return false;
      const game = await findGame(tx, gameId);
      const dailyUnits = removedAllowance(invitation.state, (game?.publishedAt ?? null) !== null);
      const player = dailyUnits === null ? null : await findPlayerByWallet(tx, normalized);
      if (player !== null && dailyUnits !== null) {
        const now = this.#clock.now();
        await setAllowance(tx, {
          playerId: player.id,
          gameId,
          dailyUnits,
          day: allowanceDay(now),
          now,
        });
      }
      return true;
    });
    if (!removed) {
      throw new CoinopError(
        'tester_not_found',
        `wallet ${normalized} is not invited to test game ${gameId}`,
        { details: { gameId, wallet: normalized } },
      );
    }
  }

  /** The player's invitations, the waiting ones first. */
  async invitationsOf(playerId: string): Promise<InvitationRecord[]> {
    const wallet = await this.#walletOf(playerId);
    return wallet === null ? [] : invitationsOf(this.#db, wallet);
  }

  /**
   * The player's answer to their invitation to test the game: accepting makes them a tester the
   * game may charge within the daily allowance they name (set with it, in one transaction);
   * declining takes that back from the next play, and leaving revokes the allowance too. Only
   * the player may answer, with their own session (`consent_requires_player`).
   */
  async answer(
    actor: ConsentActor,
    grant: { readonly playerId: string; readonly gameId: string },
    answer: InvitationAnswer,
  ): Promise<InvitationRecord> {
    assertConsentFrom({ kind: 'accepted_invitation', ...grant }, actor);
    assertConsentFrom({ kind: 'allowance', ...grant }, actor);
    const wallet = await this.#walletOf(grant.playerId);
    const notFound = new CoinopError(
      'tester_invitation_not_found',
      `you have no invitation to test game ${grant.gameId}`,
      { details: { gameId: grant.gameId } },
    );
    if (wallet === null) throw notFound;
    const answered = await this.#db.transaction(async (tx) => {
      const invitation = await findTester(tx, grant.gameId, wallet, true);
      if (!invitation) return null;
      const state = answeredInvitation(invitation.state, answer);
      if (state === 'invited') throw new TypeError('an answer never leaves an invitation waiting');
      const now = this.#clock.now();
      const dailyUnits = answeredAllowance(invitation.state, answer);
      if (dailyUnits !== null) {
        await setAllowance(tx, { ...grant, dailyUnits, day: allowanceDay(now), now });
      }
      return answerInvitation(tx, { gameId: grant.gameId, wallet, state, now });
    });
    const invitation = answered && (await findInvitation(this.#db, grant.gameId, wallet));
    if (!invitation) throw notFound;
    return invitation;
  }

  async #walletOf(playerId: string): Promise<string | null> {
    const player = await findPlayer(this.#db, playerId);
    if (!player) throw new TypeError(`player ${playerId} of a valid session has no row`);
    return player.wallet;
  }
}

function testerWallet(wallet: string): string {
  const normalized = normalizeWallet(wallet);
  if (!WALLET.test(normalized)) {
    throw new CoinopError(
      'validation_failed',
      `wallet must be 0x and 40 hex digits, got ${wallet}`,
      { details: { field: 'wallet' } },
    );
  }
  return normalized;
}

export type { InvitationRecord, TesterRecord } from '../store/testers.js';
