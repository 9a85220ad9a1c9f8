import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { PlayerDepositList } from '@coinop/protocol';
import { type Address, type Hash, type PublicClient } from 'viem';
import { Address as AddressText } from '../components/address.js';
import { FaucetOffer, useFaucet } from '../components/faucet.js';
import { ErrorAlert, errorText } from '../portal/parts.js';
import { useSession } from '../session/session.js';
import type { WalletKind } from '../session/wallets.js';
import {
  CHAIN_POLL_MS,
  ChainWalletError,
  NO_GAS_MESSAGE,
  explainChainError,
  sendDeposit,
  walletHoldings,
  type ReadyChain,
  type WalletHoldings,
} from './chain-wallet.js';
import { HstAmountField } from './hst-amount-field.js';
import { formatEth, formatHstUnits, parseHstAmount } from './hst-amounts.js';
import { TxHash } from './tx-hash.js';

/** Where a deposit is, from the signature to the credit in the arcade's ledger. */
type Progress =
  | { step: 'sending'; amountUnits: bigint }
  | { step: 'pending'; amountUnits: bigint; hash: Hash }
  | { step: 'confirming'; amountUnits: bigint; hash: Hash; done: number; needed: number }
  | { step: 'crediting'; amountUnits: bigint; hash: Hash }
  | { step: 'credited'; amountUnits: bigint; hash: Hash }
  | { step: 'held'; amountUnits: bigint; hash: Hash; reason: string | null }
  | { step: 'reverted'; amountUnits: bigint; hash: Hash }
  | { step: 'lost'; amountUnits: bigint; hash: Hash; error: string };

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

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
  // The wallet's holdings are read again whenever HST moved (a faucet grant, a withdrawal paid).
  const { call, moneyMoves } = useSession();
  const faucet = useFaucet();
  const walletFaucet = faucet?.destination === 'wallet' ? faucet : null;
  const headingId = useId();
  const [amount, setAmount] = useState('');
  const [holdings, setHoldings] = useState<WalletHoldings | null>(null);
  const [holdingsError, setHoldingsError] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const tracking = useRef<AbortController | null>(null);

  const readHoldings = useCallback(async () => {
    try {
      setHoldings(await walletHoldings(reader, chain, address));
      setHoldingsError(null);
    } catch (e) {
      setHoldingsError(`Could not read your wallet on the chain: ${explainChainError(e)}`);
    }
  }, [reader, chain, address]);

  useEffect(() => {
    void readHoldings();
  }, [readHoldings, moneyMoves]);
  useEffect(() => () => tracking.current?.abort(), []);

  /** Follows a sent deposit until the arcade credits it (or the page is left). */
  const track = async (hash: Hash, amountUnits: bigint, signal: AbortSignal) => {
    try {
      const receipt = await reader.waitForTransactionReceipt({
        hash,
        pollingInterval: CHAIN_POLL_MS,
      });
      if (signal.aborted) return;
      void readHoldings();
      if (receipt.status === 'reverted') {
        setProgress({ step: 'reverted', amountUnits, hash });
        return;
      }
      const needed = chain.confirmations;
      for (;;) {
        const head = await reader.getBlockNumber({ cacheTime: 0 });
        const done = Number(head - receipt.blockNumber);
        if (done >= needed || signal.aborted) break;
        setProgress({ step: 'confirming', amountUnits, hash, done, needed });
        await sleep(CHAIN_POLL_MS, signal);
      }
      while (!signal.aborted) {
        setProgress({ step: 'crediting', amountUnits, hash });
        const { deposits } = await call<PlayerDepositList>(`/player/deposits/${hash}`);
        const deposit = deposits[0];
        if (deposit) {
          setProgress(
            deposit.status === 'credited'
              ? { step: 'credited', amountUnits, hash }
              : { step: 'held', amountUnits, hash, reason: deposit.heldReason },
          );
          onCredited();
          return;
        }
        await sleep(CHAIN_POLL_MS, signal);
      }
    } catch (e) {
      if (!signal.aborted) {
        setProgress({ step: 'lost', amountUnits, hash, error: explainChainError(e) });
      }
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const checked = parseHstAmount(amount);
    const refuse = (message: string) => {
      setError(message);
      amountInput.current?.focus();
    };
    if (checked.error !== null) return refuse(checked.error);
    if (holdings !== null && checked.units > holdings.hstUnits) {
      return refuse(`Your wallet holds only ${formatHstUnits(holdings.hstUnits)}.`);
    }
    if (holdings !== null && holdings.gasWei === 0n) return refuse(NO_GAS_MESSAGE);
    tracking.current?.abort();
    const amountUnits = checked.units;
    setProgress({ step: 'sending', amountUnits });
    let hash: Hash;
    try {
      hash = await sendDeposit({ chain, reader, kind, address, amountUnits, accountId: playerId });
    } catch (e) {
      setProgress(null);
      return refuse(e instanceof ChainWalletError ? e.message : errorText(e));
    }
    setAmount('');
    setProgress({ step: 'pending', amountUnits, hash });
    const controller = new AbortController();
    tracking.current = controller;
    await track(hash, amountUnits, controller.signal);
  };

  const busy =
    progress !== null &&
    (progress.step === 'sending' ||
      progress.step === 'pending' ||
      progress.step === 'confirming' ||
      progress.step === 'crediting');

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

function DepositProgress({ progress }: { progress: Progress }) {
  const amount = formatHstUnits(progress.amountUnits);
  const done = progress.step === 'credited';
  const bad = progress.step === 'reverted' || progress.step === 'lost' || progress.step === 'held';
  return (
    <div
      className={`progress-card${done ? ' done' : ''}${bad ? ' bad' : ''}`}
      data-testid="deposit-progress"
    >
      <p role="status" aria-live="polite" className="progress-step" data-step={progress.step}>
        {stepText(progress, amount)}
      </p>
      {'hash' in progress && (
        <p className="progress-hash">
          Transaction: <TxHash hash={progress.hash} full />
        </p>
      )}
    </div>
  );
}

function stepText(progress: Progress, amount: string): string {
  switch (progress.step) {
    case 'sending':
      return `Depositing ${amount}: sign in your wallet…`;
    case 'pending':
      return `Deposit of ${amount} sent: waiting for it to be included in a block.`;
    case 'confirming': {
      const left = progress.needed - progress.done;
      return (
        `Deposit of ${amount} is in a block: waiting for ${left} more ` +
        `${left === 1 ? 'confirmation' : 'confirmations'} (${progress.done} of ${progress.needed}).`
      );
    }
    case 'crediting':
      return `Deposit of ${amount} confirmed on chain: waiting for the arcade to credit it.`;
    case 'credited':
      return `Credited: ${amount} added to your balance.`;
    case 'held':
      return (
        `The arcade received ${amount} but is holding it (${progress.reason ?? 'no reason given'}). ` +
        'Ask the arcade’s operator: held deposits are never lost.'
      );
    case 'reverted':
      return `The deposit of ${amount} failed on chain (the transaction reverted): nothing left your wallet.`;
    case 'lost':
      return `Could not follow the deposit of ${amount}: ${progress.error} It may still be credited: reload this page to check your balance.`;
  }
}
