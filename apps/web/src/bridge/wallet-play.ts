import { getAddress, type Hash, type Hex } from 'viem';
import {
  CHAIN_POLL_MS,
  ChainWalletError,
  chainReader,
  explainChainError,
  noGasMessage,
  readyChain,
  sendPlayLock,
  walletHoldings,
  type VaultPayer,
  type WalletHoldings,
} from '../account/chain-wallet.js';
import { formatHstUnits } from '../account/hst-amounts.js';
import type { ChainWalletOfPlayer, WalletPlayOption } from './wallet-play-option.js';
import type { WalletPlayProgress } from './wallet-play-progress.js';

/**
 * A play locked from the player's wallet (docs/concepts/chain.md "Plays locked on chain"): ask
 * the arcade for a play id, lock the tier's cost in the vault with one permit signature and one
 * `lockPlayWithPermit` transaction, follow its confirmations, then wait for the arcade's watcher
 * to open the play. The lock's transaction hash is the play's `txid`. Loaded only when the game
 * page asks for a play in chain mode (viem's wallet client and the vault's ABI are a large chunk).
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
  play: { status: string; expiresAt: string; seed?: string } | null;
}

/** Why a lock opened no play, by the arcade's `refundReason`. */
const REFUND_REASONS: Record<string, string> = {
  not_requested: 'the arcade had not asked for this lock',
  wrong_amount: 'the amount locked was not the tier’s cost',
  wrong_wallet: 'it came from another wallet than the one you play with',
  late: 'it was confirmed after the time to lock had run out',
  tier_changed: 'the tier’s cost changed meanwhile',
  game_not_playable: 'the game can no longer be played',
  reclaimable_too_soon: 'the vault’s lock time leaves too little for a whole play',
  play_voided: 'the arcade voided the play',
};

/**
 * The dialog waits this long for the wallet's holdings before it opens without the wallet
 * option: a slow RPC endpoint must not hold up a play from the balance.
 */
const HOLDINGS_READ_TIMEOUT_MS = 5_000;

/** After `lockBy`, the watcher decides within a poll or two; this leaves it ample time. */
const OPEN_WAIT_AFTER_LOCK_BY_MS = 120_000;

function withTimeout<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ChainWalletError(message)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

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
}): Promise<{ playId: string; txid: string; seed?: string } | null> {
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
        const txid = play.lockTxHash ?? hash;
        const { seed } = play.play;
        return seed === undefined
          ? { playId: play.playId, txid }
          : { playId: play.playId, txid, seed };
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

/**
 * The wallet as the play dialog offers it: its holdings and why it cannot lock `costUnits`, if
 * so, with what a lock needs. Null when the arcade has not reached its chain or publishes no RPC
 * URL for browsers: the dialog then offers the balance only.
 */
export async function prepareWalletPlay(
  wallet: ChainWalletOfPlayer,
  costUnits: bigint,
): Promise<{ payer: VaultPayer; option: WalletPlayOption } | null> {
  const chain = readyChain(wallet.settings);
  if (chain === null) return null;
  const payer: VaultPayer = {
    chain,
    reader: chainReader(chain),
    kind: wallet.kind,
    address: getAddress(wallet.address),
  };
  const { confirmations } = chain;
  let holdings: WalletHoldings;
  try {
    holdings = await withTimeout(
      walletHoldings(payer.reader, chain, payer.address),
      HOLDINGS_READ_TIMEOUT_MS,
      'The chain did not answer in time.',
    );
  } catch (error) {
    const unavailable = `Could not read your wallet on the chain: ${explainChainError(error, 'lock')}`;
    return { payer, option: { holdings: null, confirmations, unavailable } };
  }
  let unavailable: string | null = null;
  if (!wallet.canSign) {
    unavailable = 'Your browser wallet is not connected: reconnect it to lock from it.';
  } else if (holdings.hstUnits < costUnits) {
    unavailable = `Your wallet holds ${formatHstUnits(holdings.hstUnits)}, less than the cost.`;
  } else if (holdings.gasWei === 0n) {
    unavailable = noGasMessage('lock');
  }
  return { payer, option: { holdings, confirmations, unavailable } };
}
