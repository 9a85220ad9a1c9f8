import { useId, useState } from 'react';
import { formatEth, formatHstUnits } from '../account/hst-amounts.js';
import type { ApprovalDecision, ApprovalPrompt } from '../bridge/arcade-host.js';
import type { WalletPlayOption } from '../bridge/wallet-play-option.js';
import { useArmed } from './armed.js';
import { Hst } from './hst.js';
import { Modal } from './modal.js';
import { Link } from '../router.js';

/**
 * Asks the player to approve a play (lock a tier's cost) or a payment to the game's developer,
 * with their balance; Approve is disabled when they cannot afford it, and for its first moment
 * (`useArmed`: a game must not time the dialog under a click). Their wallet signs after.
 * In chain mode a play may instead be locked from the player's wallet on chain: a radio group
 * offers it beside the arcade balance, which stays the default (docs/concepts/chain.md).
 */
export function ApprovalDialog({
  prompt,
  onDecide,
}: {
  prompt: ApprovalPrompt;
  onDecide: (decision: ApprovalDecision) => void;
}) {
  const [payFrom, setPayFrom] = useState<'balance' | 'wallet'>('balance');
  const costUnits = prompt.kind === 'play' ? prompt.tier.costUnits : prompt.amountUnits;
  const wallet = prompt.kind === 'play' ? prompt.wallet : null;
  const fromWallet = payFrom === 'wallet' && wallet !== null;
  const affordable = fromWallet ? wallet.unavailable === null : prompt.balanceUnits >= costUnits;
  const armed = useArmed();
  return (
    <Modal
      title={prompt.kind === 'play' ? 'Lock HST to play?' : 'Pay the developer?'}
      onCancel={() => onDecide('rejected')}
    >
      <dl className="approval-facts">
        <dt>Game</dt>
        <dd>{prompt.gameName}</dd>
        {prompt.kind === 'play' && (
          <>
            <dt>{prompt.tournament ? 'Tournament' : 'Tier'}</dt>
            <dd>{prompt.tier.name}</dd>
          </>
        )}
        <dt>{prompt.kind === 'play' ? 'Cost' : 'Amount'}</dt>
        <dd data-testid="approval-amount">
          <Hst units={costUnits} />
        </dd>
        <dt>Your balance</dt>
        <dd>
          <Hst units={prompt.balanceUnits} />
        </dd>
      </dl>
      {wallet !== null && (
        <PayFromChoice
          wallet={wallet}
          balanceShort={prompt.balanceUnits < costUnits}
          value={payFrom}
          onChange={setPayFrom}
        />
      )}
      <p>
        {prompt.kind === 'purchase'
          ? 'The HST goes to the game’s developer for what the game offers. Your wallet signs the payment.'
          : prompt.tournament
            ? 'The entry fee is locked for this play. When you score, most of it goes into the tournament’s prize pool, paid to the best scores when the round ends, and the rest to the developer and the arcade. A play not scored by the end is paid out the same way, not refunded. Your wallet signs the approval.'
            : fromWallet
              ? 'Your wallet signs once and sends one transaction locking the cost in the arcade’s vault. It pays the leaders, the developer and the arcade when you score, or when the play runs out.'
              : 'The cost is locked for this play and pays the leaders, the developer and the arcade when you score. Your wallet signs the approval.'}
      </p>
      {!affordable && !fromWallet && (
        <p role="alert" className="error">
          Not enough HST: you have {formatHstUnits(prompt.balanceUnits)}.{' '}
          {/* The game hears "no" first: the page it asked from is left. */}
          <Link href="/account" onClick={() => onDecide('rejected')}>
            Add HST on your account page
          </Link>
          .
        </p>
      )}
      <div className="dialog-actions">
        <button type="button" onClick={() => onDecide('rejected')}>
          Reject
        </button>
        <button
          type="button"
          className="primary"
          disabled={!affordable || !armed}
          onClick={() => onDecide(fromWallet ? 'wallet' : 'balance')}
        >
          Approve
        </button>
      </div>
    </Modal>
  );
}

/** The two ways to pay for a play in chain mode, as a native radio group (arrow keys move). */
function PayFromChoice({
  wallet,
  balanceShort,
  value,
  onChange,
}: {
  wallet: WalletPlayOption;
  balanceShort: boolean;
  value: 'balance' | 'wallet';
  onChange: (value: 'balance' | 'wallet') => void;
}) {
  const name = useId();
  const balanceHint = useId();
  const walletHint = useId();
  const walletReason = useId();
  const { holdings, confirmations, unavailable } = wallet;
  return (
    <fieldset className="pay-from">
      <legend>Pay for this play</legend>
      <div className="choice">
        <input
          type="radio"
          id={`${name}-balance`}
          name={name}
          value="balance"
          checked={value === 'balance'}
          aria-describedby={balanceHint}
          onChange={() => onChange('balance')}
        />
        <label htmlFor={`${name}-balance`}>From my arcade balance</label>
        <p id={balanceHint} className="hint">
          Instant, no network fee.{balanceShort ? ' Your balance is too low for this play.' : ''}
        </p>
      </div>
      <div className="choice">
        <input
          type="radio"
          id={`${name}-wallet`}
          name={name}
          value="wallet"
          checked={value === 'wallet'}
          disabled={unavailable !== null}
          aria-describedby={unavailable === null ? walletHint : `${walletHint} ${walletReason}`}
          onChange={() => onChange('wallet')}
        />
        <label htmlFor={`${name}-wallet`}>Lock from my wallet</label>
        <p id={walletHint} className="hint">
          On chain: your wallet pays a network fee in ETH
          {confirmations > 0 &&
            `, and the game starts after ${confirmations} ${confirmations === 1 ? 'block confirms' : 'blocks confirm'} it on the chain`}
          .
          {holdings !== null && (
            <>
              {' '}
              Your wallet holds{' '}
              <span data-testid="wallet-play-hst">
                {formatHstUnits(holdings.hstUnits)}
              </span> and{' '}
              <span data-testid="wallet-play-eth">{formatEth(holdings.gasWei)} ETH</span>.
            </>
          )}
        </p>
        {unavailable !== null && (
          <p id={walletReason} className="unavailable" data-testid="wallet-play-unavailable">
            {unavailable}
          </p>
        )}
      </div>
    </fieldset>
  );
}
