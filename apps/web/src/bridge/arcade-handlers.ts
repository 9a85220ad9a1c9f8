import {
  approvalMessage,
  formatHst,
  readHst,
  type ApprovalFields,
  type ApprovedPlayRequest,
  type ApprovedPurchaseRequest,
  type ApprovedScoreRequest,
  type BoardAround,
  type BoardPage,
  type BridgeLeader,
  type Game,
  type Play,
  type Purchase,
  type ScoreResult,
} from '@coinop/protocol';
import { ApiError, requestJson } from '../api.js';
import type { PlayableTier } from './playable-tier.js';
import { WalletError, type WalletSigner } from '../session/wallets.js';
import { randomUuid } from './demo-handlers.js';
import type { HostBridgeHandlers } from './host-bridge.js';
import type { LoginHost } from './login-approval.js';
import type { WalletPlayProgress } from './wallet-play-progress.js';
import type { ChainWalletOfPlayer, WalletPlayOption } from './wallet-play-option.js';
import { tournamentRefusal } from '../tournaments/refusals.js';

// Their own module, so wallet-play.ts (loaded on demand) needs nothing of this one.
export type { ChainWalletOfPlayer, WalletPlayOption };

/** What the player is asked to approve in a dialog; a score needs only the wallet's signature. */
export type ApprovalPrompt =
  | {
      kind: 'play';
      gameName: string;
      tier: PlayableTier;
      /** Set when the tier is a tournament round: its fees go to the round's prize pool. */
      tournament?: { name: string; endsAt: string };
      /** The player's spendable HST in base units. */
      balanceUnits: bigint;
      /** Null outside chain mode, or without a wallet on the chain: the balance only. */
      wallet: WalletPlayOption | null;
    }
  | { kind: 'purchase'; gameName: string; amountUnits: bigint; balanceUnits: bigint };

/** The player's answer: no, or yes paying from the arcade balance or from the wallet. */
export type ApprovalDecision = 'rejected' | 'balance' | 'wallet';

/** What the page tells the player about their score. */
export type ScoreOutcome = Pick<ScoreResult, 'score' | 'leaderRank' | 'isWinner'>;

/** The page around the bridge: who plays, what they chose, and how to ask and tell them. */
export interface ArcadeHost {
  game(): Pick<Game, 'id' | 'name'>;
  /** The tier (or tournament round) chosen on the page, its cost exact. */
  tier(): PlayableTier | undefined;
  /** The signed-in player with their spendable HST in base units, or null. */
  player(): { id: string; signer: WalletSigner | null; balanceUnits: bigint } | null;
  /** Shows the approval dialog; how the player answered. */
  ask(prompt: ApprovalPrompt): Promise<ApprovalDecision>;
  /** A JSON POST to `/api{path}` with the player's token. */
  post<T>(path: string, body: unknown): Promise<T>;
  /** A GET of `/api{path}` with the player's token. */
  get<T>(path: string): Promise<T>;
  /** The player's wallet and the chain, in chain mode with a signed-in wallet; else null. */
  chainWallet(): ChainWalletOfPlayer | null;
  /** Shows how a play locked from the wallet is going. */
  walletProgress(progress: WalletPlayProgress): void;
  /** Aborted when the page leaves the game: work in flight stops, nothing more is answered. */
  signal: AbortSignal;
  /** The chosen tier's current leaders, read afresh. */
  leaders(): Promise<BridgeLeader[]>;
  tell(message: string, tone: 'info' | 'error'): void;
  /** Money moved or a score landed: read the balance and leaders again. */
  changed(score?: ScoreOutcome): void;
  /**
   * The game read its board (`boardPage`, `boardAround`): its own server may have scored, so the
   * page's leaders and balance are read again (once for a burst of reads).
   */
  boardRead(): void;
  /** Reads and approves the CLI logins a game's server started (bridge `login`). */
  login: LoginHost;
}

/**
 * The real arcade's answers to a hosted game (spec 4.10): a play or a payment happens only after
 * the player approves it in a dialog AND their wallet signs the approval message, which the API
 * checks and records; a score is signed by the wallet and submitted. In chain mode the player may
 * instead lock a play from their wallet on chain, the wallet's transaction being the consent; the
 * game then gets the lock's transaction hash as `txid` beside `playId`. A play or payment that is
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
      tournamentRefusal(error) ??
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
      const { costUnits } = tier;
      const walletPlay = await prepareWalletPlay(host.chainWallet(), costUnits);
      const decision = await host.ask({
        kind: 'play',
        gameName: game.name,
        tier,
        balanceUnits: player.balanceUnits,
        wallet: walletPlay?.option ?? null,
      });
      if (decision === 'wallet' && walletPlay !== null) {
        const opened = await walletPlay.module.lockPlayFromWallet({
          payer: walletPlay.payer,
          gameId: game.id,
          leaderboardId: tier.id,
          costUnits,
          post: host.post,
          get: host.get,
          progress: host.walletProgress,
          signal: host.signal,
        });
        if (opened === null) return {};
        host.changed();
        return opened;
      }
      if (decision !== 'balance' || player.balanceUnits < costUnits) return {};
      // The text the server rebuilds from the tier's cost in base units: to the unit what it locks.
      const signed = await sign(player.signer, {
        kind: 'play',
        gameId: game.id,
        gameName: game.name,
        leaderboardId: tier.id,
        tierName: tier.name,
        costUnits,
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

    tier() {
      const tier = host.tier();
      return (
        tier && {
          id: tier.id,
          name: tier.name,
          cost: tier.cost,
          currency: tier.currency,
          formattedCostString: tier.formattedCostString,
        }
      );
    },

    async approveLogin(requestorId, userCode) {
      const game = host.game();
      if (host.player() === null) {
        host.tell(`Connect a wallet to sign in to ${game.name}.`, 'error');
        return { approved: false };
      }
      try {
        const info = await host.login.info(requestorId, userCode);
        // A game may only sign the player in to itself: its login must name it.
        if (info.game?.id !== game.id) {
          host.tell(`${game.name} asked to sign you in to another game; refused.`, 'error');
          return { approved: false };
        }
        if (info.status !== 'pending') {
          host.tell(`That sign-in is ${info.status}: start it again in the game.`, 'error');
          return { approved: false };
        }
        const decision = await host.login.ask({
          gameName: game.name,
          description: info.description,
          userCode: info.userCode,
          allowance: info.game.published ? await host.login.allowance(game.id) : null,
          canGrantAllowance: info.game.published,
        });
        if (!decision.approved) {
          // The game's server hears "access_denied" at its next poll instead of waiting it out.
          await host.login.reject(requestorId, userCode).catch(() => undefined);
          return { approved: false };
        }
        await host.login.approve(requestorId, userCode, decision.dailyLimit);
        host.changed();
        return { approved: true };
      } catch (error) {
        failed('The sign-in', error);
        return { approved: false };
      }
    },

    // Board reads (issue 18) come from the public board routes: a game reads what anyone may,
    // of its own game only, whoever asks; around-me is the signed-in player's place.
    async boardPage(request) {
      const { board } = boardOf(host, request.leaderboardId);
      const query = new URLSearchParams({ limit: String(request.limit ?? 25) });
      if (request.cursor !== undefined) query.set('cursor', request.cursor);
      const page = await requestJson<BoardPage>(`${board}?${query}`);
      host.boardRead();
      return page;
    },

    async boardAround(request) {
      const { board, tierId } = boardOf(host, request.leaderboardId);
      const player = host.player();
      if (player === null) {
        const { players } = await requestJson<BoardPage>(`${board}?limit=1`);
        return { leaderboardId: tierId, players, above: [], player: null, below: [] };
      }
      const count = String(request.count ?? 5);
      const around = await requestJson<BoardAround>(
        `${board}/players/${encodeURIComponent(player.id)}?count=${count}`,
      );
      host.boardRead();
      return around;
    },

    async hstTransfer(amount) {
      const player = host.player();
      const game = host.game();
      if (player === null) {
        host.tell('Connect a wallet to pay.', 'error');
        return {};
      }
      // The game names a number of HST (spec 4.10); it is read once, exactly as the arcade reads
      // it, and from then on the player sees, signs and pays these base units.
      const asked = readHst(amount);
      if (asked.problem !== null || asked.units === 0n) {
        const why = asked.problem === null ? 'must be more than 0' : asked.why;
        host.tell(
          `${game.name} asked for a payment the arcade cannot make: the amount ${why}. ` +
            'Nothing was paid.',
          'error',
        );
        return {};
      }
      const amountUnits = asked.units;
      const decision = await host.ask({
        kind: 'purchase',
        gameName: game.name,
        amountUnits,
        balanceUnits: player.balanceUnits,
      });
      if (decision !== 'balance' || player.balanceUnits < amountUnits) return {};
      const signed = await sign(player.signer, {
        kind: 'purchase',
        gameId: game.id,
        gameName: game.name,
        amountUnits,
        nonce: randomUuid(),
      });
      if (signed === null) return {};
      try {
        const paid = await host.post<Purchase>(`/player/games/${game.id}/purchases`, {
          amount: formatHst(amountUnits),
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

/** The public route of the hosted game's board `leaderboardId`, or of the tier chosen now. */
function boardOf(host: ArcadeHost, leaderboardId: string | undefined) {
  const tierId = leaderboardId ?? host.tier()?.id;
  if (tierId === undefined) throw new Error('the game has no tier to read');
  const gameId = encodeURIComponent(host.game().id);
  return { tierId, board: `/api/catalog/games/${gameId}/boards/${encodeURIComponent(tierId)}` };
}

/**
 * The chain code and what it read of the wallet, loaded only for a play in chain mode; null
 * outside it, or when the chunk cannot load (the balance then remains, as without chain mode).
 */
async function prepareWalletPlay(wallet: ChainWalletOfPlayer | null, costUnits: bigint) {
  if (wallet === null) return null;
  try {
    const module = await import('./wallet-play.js');
    const prepared = await module.prepareWalletPlay(wallet, costUnits);
    return prepared && { module, ...prepared };
  } catch {
    return null;
  }
}
