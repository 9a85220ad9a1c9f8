import { useId } from 'react';
import type { Address, PublicClient } from 'viem';
import { Address as AddressText } from '../components/address.js';
import { FaucetOffer, useFaucet } from '../components/faucet.js';
import { ErrorAlert } from '../portal/parts.js';
import type { WalletKind } from '../session/wallets.js';
import { NO_GAS_MESSAGE, type ReadyChain, type WalletHoldings } from './chain-wallet.js';
import { DepositProgress } from './deposit-progress.js';
import { HstAmountField } from './hst-amount-field.js';
import { formatEth, formatHstUnits } from './hst-amounts.js';
import { useDeposit } from './use-deposit.js';

/**
 * Deposit HST from the player's wallet into the arcade: one permit signature and one transaction
 * (`depositWithPermit`), then the transaction's confirmations, then the arcade's credit.
 */
export function DepositSection({
  chain,
  reader,
  kind,
  address,
  playerId,
  canSign,
  onCredited,
}: {
  chain: ReadyChain;
  reader: PublicClient;
  kind: WalletKind;
  address: Address;
  playerId: string;
  /** False when the browser wallet is gone after a reload: it must be reconnected to sign. */
  canSign: boolean;
  onCredited: () => void;
}) {
  const deposit = useDeposit({ chain, reader, kind, address, playerId, onCredited });
  const { amount, setAmount, holdings, holdingsError, error, progress } = deposit;
  const { amountInput, submit, busy } = deposit;
  const faucet = useFaucet();
  const walletFaucet = faucet?.destination === 'wallet' ? faucet : null;
  const headingId = useId();

  return (
    <section className="portal-section money" aria-labelledby={headingId}>
      <h2 id={headingId}>Deposit</h2>
      <p className="muted">
        Bring HST from your wallet into the arcade. Your wallet signs once and sends one transaction
        to the arcade’s vault; the arcade credits your balance{' '}
        {chain.confirmations === 0
          ? 'as soon as the transaction is in a block'
          : `once the transaction has ${chain.confirmations} ${chain.confirmations === 1 ? 'confirmation' : 'confirmations'}`}
        .
      </p>
      <dl className="facts wallet-facts">
        <dt>Wallet</dt>
        <dd>
          <AddressText address={address} copy />
        </dd>
        <dt>HST in your wallet</dt>
        <dd data-testid="wallet-hst">{holdings ? formatHstUnits(holdings.hstUnits) : '…'}</dd>
        <dt>ETH for network fees</dt>
        <dd data-testid="wallet-eth">{holdings ? `${formatEth(holdings.gasWei)} ETH` : '…'}</dd>
      </dl>
      <ErrorAlert error={holdingsError} />
      {holdings !== null && (
        <WalletNotice holdings={holdings} faucetAmount={walletFaucet?.amount ?? null} />
      )}
      {walletFaucet !== null && <FaucetOffer />}
      {!canSign ? (
        <p className="warning">
          Your browser wallet is not connected: use “Reconnect wallet” at the top of the page to
          deposit.
        </p>
      ) : (
        <form
          className="money-form"
          aria-label="Deposit"
          noValidate
          onSubmit={(e) => void submit(e)}
        >
          <HstAmountField
            label="Amount to deposit (HST)"
            ref={amountInput}
            value={amount}
            onChange={setAmount}
            hint="Up to 8 decimals, at most what your wallet holds."
          />
          <div className="form-actions">
            <button type="submit" className="primary" disabled={busy}>
              {progress?.step === 'sending' ? 'Depositing…' : 'Deposit'}
            </button>
          </div>
        </form>
      )}
      <ErrorAlert error={error} />
      {progress !== null && <DepositProgress progress={progress} />}
    </section>
  );
}

/**
 * What the wallet lacks for a deposit, said before anything is signed: ETH for the fee, HST to
 * deposit. In a test arcade whose faucet pays into the wallet, it points to the faucet below.
 */
function WalletNotice({
  holdings,
  faucetAmount,
}: {
  holdings: WalletHoldings;
  faucetAmount: string | null;
}) {
  const noHst = holdings.hstUnits === 0n;
  const fromFaucet = `Get ${faucetAmount} test HST below: the faucet sends a little ETH for the fees with it.`;
  if (holdings.gasWei === 0n) {
    return (
      <p className="warning" data-testid="no-gas">
        {faucetAmount === null
          ? NO_GAS_MESSAGE
          : `Your wallet holds ${noHst ? 'no HST and ' : ''}no ETH to pay the network fee for a deposit. ${fromFaucet}`}
      </p>
    );
  }
  if (noHst && faucetAmount !== null) {
    return (
      <p className="notice-card" data-testid="no-hst">
        Your wallet holds no HST to deposit yet. Get {faucetAmount} test HST below.
      </p>
    );
  }
  return null;
}
