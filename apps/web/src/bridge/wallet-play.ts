import type { Hash, Hex } from 'viem';
import {
  CHAIN_POLL_MS,
  ChainWalletError,
  explainChainError,
  sendPlayLock,
  type VaultPayer,
} from '../account/chain-wallet.js';
import { formatHstUnits } from '../account/hst-amounts.js';

/**
 * A play locked from the player's wallet (docs/concepts/chain.md "Plays locked on chain"): ask
 * the arcade for a play id, lock the tier's cost in the vault with one permit signature and one
 * `lockPlayWithPermit` transaction, follow its confirmations, then wait for the arcade's watcher
 * to open the play. The lock's transaction hash is the play's `txid`.
 */

/** `POST /player/games/{gameId}/chain-plays` and `GET /player/chain-plays/{playId}`. */
export interface ChainPlay {
  playId: string;
  playIdBytes16: Hex;
  amount: string;
  amountUnits: string;
  chainId: number;
  vault: string;
  lockBy: string;
  state: 'requested' | 'open' | 'refund_due' | 'sent' | 'settled' | 'refunded' | 'reclaimed';
  refundReason: string | null;
  lockTxHash: string | null;
  play: { status: string; expiresAt: string } | null;
}

/** Where a wallet play is, from the signature to the open play (or why it opened none). */
export type WalletPlayProgress =
  | { step: 'signing'; amountUnits: bigint }
  | { step: 'pending'; amountUnits: bigint; hash: Hash }
  | { step: 'confirming'; amountUnits: bigint; hash: Hash; done: number; needed: number }
  | { step: 'opening'; amountUnits: bigint; hash: Hash }
  | { step: 'opened'; amountUnits: bigint; hash: Hash }
  | { step: 'refund'; amountUnits: bigint; hash: Hash; reason: string }
  | { step: 'reverted'; amountUnits: bigint; hash: Hash }
  | { step: 'lost'; amountUnits: bigint; hash: Hash; error: string }
  | { step: 'not-sent'; amountUnits: bigint; error: string };

/** Why a lock opened no play, by the arcade's `refundReason`. */
const REFUND_REASONS: Record<string, string> = {
  not_requested: 'the arcade had not asked for this lock',
  wrong_amount: 'the amount locked was not the tier’s cost',
  wrong_wallet: 'it came from another wallet than the one you play with',
  late: 'it was confirmed after the time to lock had run out',
  tier_changed: 'the tier’s cost changed meanwhile',
  game_not_playable: 'the game can no longer be played',
  play_voided: 'the arcade voided the play',
};

/** After `lockBy`, the watcher decides within a poll or two; this leaves it ample time. */
const OPEN_WAIT_AFTER_LOCK_BY_MS = 120_000;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Locks the tier's cost from the wallet and resolves with the open play's id and `txid`, or null
 * when no play opened (declined, refused, reverted, refunded, or the page left: `signal`). Every
 * step is reported through `progress`, which says what happens to the HST.
 */
export async function lockPlayFromWallet(input: {
  payer: VaultPayer;
  gameId: string;
  leaderboardId: string;
  /** The cost the player approved in the dialog. */
  costUnits: bigint;
  post<T>(path: string, body: unknown): Promise<T>;
  get<T>(path: string): Promise<T>;
  progress(progress: WalletPlayProgress): void;
  signal: AbortSignal;
}): Promise<{ playId: string; txid: string } | null> {
  const { payer, costUnits, progress, signal } = input;
  progress({ step: 'signing', amountUnits: costUnits });
  let hash: Hash;
  let request: ChainPlay;
  try {
    request = await input.post<ChainPlay>(`/player/games/${input.gameId}/chain-plays`, {
      leaderboardId: input.leaderboardId,
    });
    // The player approved a price; a tier repriced since is a new question, not a silent change.
    if (BigInt(request.amountUnits) !== costUnits) {
      throw new ChainWalletError(
        `The tier now costs ${formatHstUnits(BigInt(request.amountUnits))}: nothing was sent. ` +
          'Press Play again to see the new price.',
      );
    }
    hash = await sendPlayLock({
      ...payer,
      amountUnits: costUnits,
      playIdBytes16: request.playIdBytes16,
    });
  } catch (error) {
    progress({
      step: 'not-sent',
      amountUnits: costUnits,
      error:
        error instanceof ChainWalletError
          ? error.message
          : `The arcade did not start the play: ${(error as Error).message}`,
    });
    return null;
  }
  const amountUnits = costUnits;
  progress({ step: 'pending', amountUnits, hash });
  try {
    const receipt = await payer.reader.waitForTransactionReceipt({
      hash,
      pollingInterval: CHAIN_POLL_MS,
    });
    if (signal.aborted) return null;
    if (receipt.status === 'reverted') {
      progress({ step: 'reverted', amountUnits, hash });
      return null;
    }
    const needed = payer.chain.confirmations;
    for (;;) {
      const head = await payer.reader.getBlockNumber({ cacheTime: 0 });
      const done = Number(head - receipt.blockNumber);
      if (done >= needed || signal.aborted) break;
      progress({ step: 'confirming', amountUnits, hash, done, needed });
      await sleep(CHAIN_POLL_MS, signal);
    }
    const giveUpAt = Date.parse(request.lockBy) + OPEN_WAIT_AFTER_LOCK_BY_MS;
    while (!signal.aborted) {
      progress({ step: 'opening', amountUnits, hash });
      const play = await input.get<ChainPlay>(`/player/chain-plays/${request.playId}`);
      if (play.play !== null) {
        progress({ step: 'opened', amountUnits, hash });
        return { playId: play.playId, txid: play.lockTxHash ?? hash };
      }
      if (play.state !== 'requested') {
        const reason = REFUND_REASONS[play.refundReason ?? ''] ?? 'the arcade refused it';
        progress({ step: 'refund', amountUnits, hash, reason });
        return null;
      }
      if (Date.now() > giveUpAt) {
        throw new Error('the arcade has not seen the lock yet.');
      }
      await sleep(CHAIN_POLL_MS, signal);
    }
    return null;
  } catch (error) {
    if (!signal.aborted) {
      progress({ step: 'lost', amountUnits, hash, error: explainChainError(error, 'lock') });
    }
    return null;
  }
}

/** The progress in words: what is happening, and what it means for the player's HST. */
export function walletPlayText(progress: WalletPlayProgress): string {
  const amount = formatHstUnits(progress.amountUnits);
  switch (progress.step) {
    case 'signing':
      return `Locking ${amount} from your wallet: sign in your wallet…`;
    case 'pending':
      return `Lock of ${amount} sent: waiting for it to be included in a block.`;
    case 'confirming': {
      const left = progress.needed - progress.done;
      return (
        `Lock of ${amount} is in a block: waiting for ${left} more ` +
        `${left === 1 ? 'confirmation' : 'confirmations'} (${progress.done} of ${progress.needed}).`
      );
    }
    case 'opening':
      return `Lock of ${amount} confirmed on chain: waiting for the arcade to open the play.`;
    case 'opened':
      return `Locked ${amount} from your wallet: the play is open.`;
    case 'refund':
      return (
        `The lock opened no play: ${progress.reason}. The arcade returns the ${amount} to your ` +
        'wallet with a refund transaction, usually within a minute; only the network fee is spent.'
      );
    case 'reverted':
      return `The lock of ${amount} failed on chain (the transaction reverted): nothing left your wallet but the network fee.`;
    case 'lost':
      return (
        `Could not follow the lock of ${amount}: ${progress.error} If it is confirmed in time the ` +
        'play opens and, unplayed, settles like any play when it expires; otherwise it is refunded to your wallet.'
      );
    case 'not-sent':
      return progress.error;
  }
}
