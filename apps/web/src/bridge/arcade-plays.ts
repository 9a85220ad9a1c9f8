import type {
  ApprovedPlayRequest,
  ApprovedScoreRequest,
  Play,
  ReceivePlayMessage,
  ReceiveSubmitScoreMessage,
  ScoreResult,
} from '@coinop/protocol';
import { ApiError } from '../api.js';
import type { ArcadeConsent } from './arcade-consent.js';
import { NOT_SIGNED_IN, signedInPlayer, type ArcadeHost } from './arcade-host.js';
import { randomUuid } from './demo-handlers.js';
import type { ChainWalletOfPlayer } from './wallet-play-option.js';

/**
 * A play (bridge `play`): approved in the dialog and signed by the wallet, paid from the balance;
 * or, in chain mode, locked from the wallet on chain.
 */
export async function openPlay(
  host: ArcadeHost,
  consent: ArcadeConsent,
): Promise<ReceivePlayMessage> {
  const { sign, failed } = consent;
  const player = await signedInPlayer(host);
  if (player === null) return { refusal: NOT_SIGNED_IN };
  const tier = host.tier();
  const game = host.game();
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
    if (opened.playId !== undefined) {
      host.playOpened({ id: opened.playId, tierName: tier.name, costUnits, expiresAt: null });
    }
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
    if (costUnits > 0n) {
      host.playOpened({ id: play.id, tierName: tier.name, costUnits, expiresAt: play.expiresAt });
    }
    host.changed();
    return play.seed === undefined ? { playId: play.id } : { playId: play.id, seed: play.seed };
  } catch (error) {
    failed('The play', error);
    return {};
  }
}

/** A score (bridge `submitScore`), signed by the wallet and submitted. */
export async function submitScore(
  host: ArcadeHost,
  consent: ArcadeConsent,
  playId: string,
  score: number,
  replay: string | undefined,
): Promise<ReceiveSubmitScoreMessage> {
  const { sign, failed } = consent;
  const player = host.player();
  const game = host.game();
  if (player === null) throw new Error('no player is signed in');
  const signed = await sign(player.signer, {
    kind: 'score',
    gameId: game.id,
    gameName: game.name,
    playId,
    score,
    nonce: randomUuid(),
  });
  if (signed === null) throw new Error('the player did not sign it');
  try {
    const result = await host.post<ScoreResult>(`/player/games/${game.id}/scores`, {
      playId,
      score,
      // The replay is evidence for the game's verifier, not part of what the player signs.
      ...(replay === undefined ? {} : { replay }),
      ...signed,
    } satisfies ApprovedScoreRequest);
    host.playScored(playId);
    host.changed({
      score: result.score,
      leaderRank: result.leaderRank,
      isWinner: result.isWinner,
    });
    return { playId: result.playId };
  } catch (error) {
    if (error instanceof ApiError && SCORE_REFUSALS.has(error.code)) {
      // The game's score rules refused it (issue 30): nothing was paid and the play is open.
      host.tell(
        `The arcade refused this score: ${error.message}. Your play stays open for a score ` +
          'within the game’s rules.',
        'error',
      );
    } else {
      failed('The score', error);
    }
    throw error;
  }
}

/** The codes of a score its game's rules refused (docs/concepts/score-integrity.md). */
const SCORE_REFUSALS = new Set([
  'score_out_of_bounds',
  'score_too_fast',
  'replay_required',
  'replay_rejected',
  'replay_too_large',
]);

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
