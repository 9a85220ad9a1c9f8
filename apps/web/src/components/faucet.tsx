import { useState } from 'react';
import { formatHstGrouped, type FaucetGrant } from '@coinop/protocol';
import { hstUnits } from '../account/hst-amounts.js';
import { useSession } from '../session/session.js';
import { shortAddress } from './address.js';
import { useToast } from './toasts.js';

/** Where the faucet was asked: the account page says "below", the header's menu names the page. */
export type FaucetPlace = 'menu' | 'account';

export interface Faucet {
  /** HST per grant, as the arcade writes it (`"100"`). */
  amount: string;
  /** `wallet`: minted to the player's wallet on the dev chain; `ledger`: to the arcade balance. */
  destination: 'ledger' | 'wallet';
  busy: boolean;
  /** Takes a grant, refreshes every money view, and says in a toast where the HST went. */
  take(place: FaucetPlace): Promise<void>;
}

/**
 * The development arcade's test faucet (`POST /player/faucet`) for the signed-in player; null
 * when the arcade has none or nobody is signed in. Used by the header's account menu and the
 * account page.
 */
export function useFaucet(): Faucet | null {
  const session = useSession();
  const toast = useToast();
  const [busy, setBusy] = useState(false);
  const { state } = session;
  if (state.status !== 'signed-in' || state.player.faucet.amount === '0') return null;
  const { amount, destination } = state.player.faucet;
  const take = async (place: FaucetPlace) => {
    setBusy(true);
    try {
      const grant = await session.call<FaucetGrant>('/player/faucet', {});
      await session.moved();
      toast(grantText(grant, amount, place));
    } catch (error) {
      toast(`The faucet did not pay: ${(error as Error).message}`, 'error');
    } finally {
      setBusy(false);
    }
  };
  return { amount, destination, busy, take };
}

/** Where the HST went, exactly: the wallet (to deposit) or the arcade balance (to play with). */
export function grantText(grant: FaucetGrant, amount: string, place: FaucetPlace): string {
  if (grant.destination === 'ledger') {
    const balance = formatHstGrouped(hstUnits(grant.balance));
    return `${amount} test HST added to your arcade balance (now ${balance} HST).`;
  }
  const granted = formatHstGrouped(hstUnits(grant.amount));
  const next = place === 'account' ? 'deposit it below' : 'deposit it on your account page';
  return (
    `${granted} test HST sent to your wallet ${shortAddress(grant.wallet)}, not to your arcade ` +
    `balance: ${next} to play with it.`
  );
}

/**
 * The faucet on the account page: what it gives and where it goes, and its button. Nothing
 * when the arcade has no faucet.
 */
export function FaucetOffer() {
  const faucet = useFaucet();
  if (faucet === null) return null;
  return (
    <div className="faucet-offer" data-testid="faucet-offer">
      <p>
        {faucet.destination === 'wallet'
          ? `This is a test arcade: its faucet sends ${faucet.amount} test HST to your wallet, with a little ETH for the network fees, for you to deposit.`
          : `This is a test arcade: its faucet adds ${faucet.amount} test HST to your arcade balance.`}
      </p>
      <button
        type="button"
        className="faucet"
        disabled={faucet.busy}
        onClick={() => void faucet.take('account')}
      >
        {faucet.busy ? 'Getting test HST…' : `Get ${faucet.amount} test HST`}
      </button>
    </div>
  );
}
