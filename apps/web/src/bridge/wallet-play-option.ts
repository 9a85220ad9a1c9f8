import type { ChainSettings } from '@coinop/protocol';
import type { WalletHoldings } from '../account/chain-wallet.js';
import type { WalletKind } from '../session/wallets.js';

/**
 * Locking a play from the player's wallet on chain, offered beside the arcade balance in chain
 * mode (docs/concepts/client-side-play.md).
 */
export interface WalletPlayOption {
  /** The wallet's HST and ETH; null when the chain could not be read. */
  holdings: WalletHoldings | null;
  /** Confirmations the lock waits for before the play opens. */
  confirmations: number;
  /** Why the wallet cannot lock this play now, in words; null when it can. */
  unavailable: string | null;
}

/** The player's wallet and the arcade's chain, when the arcade is in chain mode. */
export interface ChainWalletOfPlayer {
  settings: ChainSettings;
  kind: WalletKind;
  address: string;
  /** False while a browser wallet is disconnected after a reload: it cannot sign. */
  canSign: boolean;
}
