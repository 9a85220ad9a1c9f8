import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { formatHst, type Withdrawal, type WithdrawalStatus } from '@coinop/protocol';
import { isAddress } from 'viem';
import { ErrorAlert, Status, When, errorText } from '../portal/parts.js';
import { ApiError } from '../api.js';
import { Address, shortAddress } from '../components/address.js';
import { useSession } from '../session/session.js';
import { HstAmountField } from './hst-amount-field.js';
import { formatHstUnits, hstUnits, parseHstAmount } from './hst-amounts.js';
import { TxHash } from './tx-hash.js';
import type { WithdrawalsApi } from './withdrawals-api.js';

/** How often the list is read again while a withdrawal is queued or sent. */
const IN_FLIGHT_POLL_MS = 2_000;

const STATUS_TEXT: Record<WithdrawalStatus, string> = {
  queued: 'Queued',
  sent: 'Sending',
  paid: 'Paid',
  failed: 'Failed',
};

const inFlight = (w: Withdrawal) => w.status === 'queued' || w.status === 'sent';

/**
 * Withdraw HST to a wallet, then the withdrawals with their status: the player's account page and
 * the developer portal's earnings both use it, over their own routes.
 */
export function WithdrawSection({
  api,
  availableUnits,
  defaultTo,
  heading,
  intro,
  onChange,
}: {
  api: WithdrawalsApi;
  /** What may be withdrawn now; null while unknown. */
  availableUnits: bigint | null;
  /** The wallet offered first: the signed-in wallet. */
  defaultTo: string | null;
  heading: string;
  intro: string;
  /** A withdrawal was asked for or settled: balances changed. */
  onChange: () => void;
}) {
  const headingId = useId();
  const toId = useId();
  const toHint = useId();
  const [amount, setAmount] = useState('');
  const [to, setTo] = useState(defaultTo ?? '');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [list, setList] = useState<readonly Withdrawal[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const amountInput = useRef<HTMLInputElement>(null);
  const toInput = useRef<HTMLInputElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  // Read again whenever HST moved in this page (a withdrawal asked for here, a faucet grant...).
  const { moneyMoves } = useSession();

  const load = useCallback(async () => {
    try {
      const page = await api.list();
      setLoadError(null);
      setList((before) => {
        // A withdrawal that settled since the last read changed what the wallet and balance hold.
        const settled = page.withdrawals.some(
          (w) =>
            !inFlight(w) && before?.some((b) => b.withdrawalId === w.withdrawalId && inFlight(b)),
        );
        if (settled) onChangeRef.current();
        return page.withdrawals;
      });
    } catch (e) {
      setLoadError(`Could not load the withdrawals: ${errorText(e)}`);
    }
  }, [api]);

  useEffect(() => {
    void load();
  }, [load, moneyMoves]);

  const polling = list?.some(inFlight) ?? false;
  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => void load(), IN_FLIGHT_POLL_MS);
    return () => clearInterval(timer);
  }, [polling, load]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setStatus(null);
    const checked = parseHstAmount(amount);
    if (checked.error !== null) {
      setError(checked.error);
      amountInput.current?.focus();
      return;
    }
    if (availableUnits !== null && checked.units > availableUnits) {
      setError(
        `That is more than you can withdraw: ${formatHstUnits(availableUnits)} is available.`,
      );
      amountInput.current?.focus();
      return;
    }
    const address = to.trim();
    if (!isAddress(address, { strict: false }) || /^0x0{40}$/i.test(address)) {
      setError('Enter the wallet address to pay: 0x followed by 40 hexadecimal characters.');
      toInput.current?.focus();
      return;
    }
    setBusy(true);
    try {
      const withdrawal = await api.request(
        { amount: formatHst(checked.units), to: address },
        crypto.randomUUID(),
      );
      setAmount('');
      setStatus(
        `Withdrawal of ${formatHstUnits(hstUnits(withdrawal.amount))} to ${shortAddress(withdrawal.to)} ` +
          'requested: the amount is reserved, and the list below shows when it is paid.',
      );
      onChange();
      await load();
    } catch (e) {
      setError(`Could not withdraw: ${withdrawalErrorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="portal-section money" aria-labelledby={headingId}>
      <h2 id={headingId}>{heading}</h2>
      <p className="muted">{intro}</p>
      <form className="money-form" aria-label={heading} noValidate onSubmit={(e) => void submit(e)}>
        <HstAmountField
          label="Amount (HST)"
          ref={amountInput}
          value={amount}
          onChange={setAmount}
          hint={
            availableUnits === null
              ? 'Up to 8 decimals.'
              : `Up to 8 decimals; ${formatHstUnits(availableUnits)} available.`
          }
        />
        <div className="field">
          <label htmlFor={toId}>To wallet</label>
          <input
            id={toId}
            ref={toInput}
            className="mono"
            autoComplete="off"
            spellCheck={false}
            aria-describedby={toHint}
            value={to}
            onChange={(e) => setTo(e.target.value)}
          />
          <p id={toHint} className="hint">
            {defaultTo !== null && to.trim().toLowerCase() === defaultTo.toLowerCase()
              ? 'Your own wallet, the one you signed in with.'
              : 'An address on the arcade’s chain. Check it: a payment cannot be taken back.'}
          </p>
        </div>
        <div className="form-actions">
          <button type="submit" className="primary" disabled={busy}>
            {busy ? 'Withdrawing…' : 'Withdraw'}
          </button>
        </div>
      </form>
      <ErrorAlert error={error} />
      <Status text={status} />
      <ErrorAlert error={loadError} />
      {list === null && loadError === null && <p role="status">Loading the withdrawals…</p>}
      {list !== null && list.length === 0 && <p className="empty">No withdrawals yet.</p>}
      {list !== null && list.length > 0 && (
        <WithdrawalTable list={list} caption="Your withdrawals, newest first" />
      )}
    </section>
  );
}

function WithdrawalTable({ list, caption }: { list: readonly Withdrawal[]; caption: string }) {
  const captionId = useId();
  return (
    <div className="table-wrap" tabIndex={0} role="region" aria-labelledby={captionId}>
      <table className="withdrawals">
        <caption id={captionId}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Requested</th>
            <th scope="col">Amount</th>
            <th scope="col">Status</th>
            <th scope="col">To</th>
            <th scope="col">Transaction</th>
          </tr>
        </thead>
        <tbody>
          {list.map((w) => (
            <tr key={w.withdrawalId} data-withdrawal={w.withdrawalId}>
              <td>
                <When iso={w.requestedAt} />
              </td>
              <td className="amount">{formatHstUnits(hstUnits(w.amount))}</td>
              <td>
                <span className={`badge status-${w.status}`}>{STATUS_TEXT[w.status]}</span>
                {w.status === 'failed' && w.lastError !== null && (
                  <span className="status-note">{w.lastError}</span>
                )}
                {w.status === 'paid' && w.settledAt !== null && (
                  <span className="status-note">
                    <When iso={w.settledAt} />
                  </span>
                )}
              </td>
              <td>
                <Address address={w.to} short />
              </td>
              <td>{w.txHash === null ? '—' : <TxHash hash={w.txHash} />}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The arcade's refusal, with the numbers it gives where it gives them. */
function withdrawalErrorText(error: unknown): string {
  if (error instanceof ApiError && error.code === 'chain_not_ready') {
    return 'the arcade has not reached its chain yet; try again in a minute.';
  }
  return errorText(error);
}
