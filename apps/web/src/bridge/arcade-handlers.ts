import {
  approvalMessage,
  type ApprovalFields,
  type ApprovedPlayRequest,
  type ApprovedPurchaseRequest,
  type ApprovedScoreRequest,
  type BridgeLeader,
  type Game,
  type Leaderboard,
  type Play,
  type Purchase,
  type ScoreResult,
} from '@coinop/protocol';
import { ApiError } from '../api.js';
import { WalletError, type WalletSigner } from '../session/wallets.js';
import { randomUuid } from './demo-handlers.js';
import type { HostBridgeHandlers } from './host-bridge.js';

/** What the player is asked to approve in a dialog; a score needs only the wallet's signature. */
export type ApprovalPrompt =
  | { kind: 'play'; gameName: string; tier: Leaderboard; balance: number }
  | { kind: 'purchase'; gameName: string; amount: number; balance: number };

/** What the page tells the player about their score. */
export type ScoreOutcome = Pick<ScoreResult, 'score' | 'leaderRank' | 'isWinner'>;

/** The page around the bridge: who plays, what they chose, and how to ask and tell them. */
export interface ArcadeHost {
  game(): Pick<Game, 'id' | 'name'>;
  /** The tier chosen in the page's drop-down. */
  tier(): Leaderboard | undefined;
  /** The signed-in player, or null. */
  player(): { signer: WalletSigner | null; balance: number } | null;
  /** Shows the approval dialog; true when the player clicked "Approve". */
  ask(prompt: ApprovalPrompt): Promise<boolean>;
  /** A JSON POST to `/api{path}` with the player's token. */
  post<T>(path: string, body: unknown): Promise<T>;
  /** The chosen tier's current leaders, read afresh. */
  leaders(): Promise<BridgeLeader[]>;
  tell(message: string, tone: 'info' | 'error'): void;
  /** Money moved or a score landed: read the balance and leaders again. */
  changed(score?: ScoreOutcome): void;
}

/**
 * The real arcade's answers to a hosted game (spec 4.10): a play or a payment happens only after
 * the player approves it in a dialog AND their wallet signs the approval message, which the API
 * checks and records; a score is signed by the wallet and submitted. A play or payment that is
 * not approved, not signed or not affordable is answered without `playId`/`txid`, so the game
 * does not start or provision anything.
 */
export function createArcadeHandlers(host: ArcadeHost): HostBridgeHandlers {
  /** Signs the approval; null when the player declined in the wallet or cannot sign. */
  const sign = async (
    signer: WalletSigner | null,
    fields: ApprovalFields,
  ): Promise<{ nonce: string; signature: string } | null> => {
    if (signer === null) {
      host.tell('Reconnect your wallet to sign.', 'error');
      return null;
    }
    try {
      return { nonce: fields.nonce, signature: await signer.signMessage(approvalMessage(fields)) };
    } catch (error) {
      host.tell(
        error instanceof WalletError && error.rejected
          ? 'The wallet did not sign.'
          : `The wallet failed: ${(error as Error).message}`,
        'error',
      );
      return null;
    }
  };

  const failed = (what: string, error: unknown) =>
    host.tell(
      `${what} failed: ${error instanceof ApiError ? error.message : String(error)}`,
      'error',
    );

  return {
    async play() {
      const player = host.player();
      const tier = host.tier();
      const game = host.game();
      if (player === null) {
        host.tell('Connect a wallet to play.', 'error');
        return {};
      }
      if (tier === undefined) return {};
      const approved = await host.ask({
        kind: 'play',
        gameName: game.name,
        tier,
        balance: player.balance,
      });
      if (!approved || player.balance < tier.cost) return {};
      const signed = await sign(player.signer, {
        kind: 'play',
        gameId: game.id,
        gameName: game.name,
        leaderboardId: tier.id,
        tierName: tier.name,
        cost: tier.cost,
        nonce: randomUuid(),
      });
      if (signed === null) return {};
      try {
        const play = await host.post<Play>(`/player/games/${game.id}/plays`, {
          leaderboardId: tier.id,
          ...signed,
        } satisfies ApprovedPlayRequest);
        host.changed();
        return { playId: play.id };
      } catch (error) {
        failed('The play', error);
        return {};
      }
    },

    async submitScore(playId, score) {
      const player = host.player();
      const game = host.game();
      if (player === null) throw new Error('no player is signed in to score');
      const signed = await sign(player.signer, {
        kind: 'score',
        gameId: game.id,
        gameName: game.name,
        playId,
        score,
        nonce: randomUuid(),
      });
      if (signed === null) throw new Error('the score was not signed');
      try {
        const result = await host.post<ScoreResult>(`/player/games/${game.id}/scores`, {
          playId,
          score,
          ...signed,
        } satisfies ApprovedScoreRequest);
        host.changed({
          score: result.score,
          leaderRank: result.leaderRank,
          isWinner: result.isWinner,
        });
        return { playId: result.playId };
      } catch (error) {
        failed('The score', error);
        throw error;
      }
    },

    getLeaderboard: () => host.leaders(),

    async hstTransfer(amount) {
      const player = host.player();
      const game = host.game();
      if (player === null) {
        host.tell('Connect a wallet to pay.', 'error');
        return {};
      }
      const approved = await host.ask({
        kind: 'purchase',
        gameName: game.name,
        amount,
        balance: player.balance,
      });
      if (!approved || player.balance < amount) return {};
      const signed = await sign(player.signer, {
        kind: 'purchase',
        gameId: game.id,
        gameName: game.name,
        amount,
        nonce: randomUuid(),
      });
      if (signed === null) return {};
      try {
        const paid = await host.post<Purchase>(`/player/games/${game.id}/purchases`, {
          amount,
          ...signed,
        } satisfies ApprovedPurchaseRequest);
        host.changed();
        return { txid: paid.txid };
      } catch (error) {
        failed('The payment', error);
        return {};
      }
    },
  };
}
