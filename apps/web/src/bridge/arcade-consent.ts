import { approvalMessage, type ApprovalFields } from '@coinop/protocol';
import { ApiError } from '../api.js';
import { WalletError, type WalletSigner } from '../session/wallets.js';
import { tournamentRefusal } from '../tournaments/refusals.js';
import type { ArcadeHost } from './arcade-host.js';

/** How the handlers get the player's signature on an approval, and say what failed. */
export interface ArcadeConsent {
  /** Signs the approval; null when the player declined in the wallet or cannot sign. */
  sign(
    signer: WalletSigner | null,
    fields: ApprovalFields,
  ): Promise<{ nonce: string; signature: string } | null>;
  /** Tells the player what failed and why (a tournament's refusal in its own words). */
  failed(what: string, error: unknown): void;
}

/** The signing and the telling the handlers share, for the page `host`. */
export function arcadeConsent(host: ArcadeHost): ArcadeConsent {
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
  return { sign, failed };
}
