import { WITHDRAWAL_STATUS_TEXT } from './withdrawal-status.js';
import { useId } from 'react';
import type { Withdrawal } from '@coinop/protocol';
import { ErrorAlert, Status, When } from '../portal/parts.js';
import { Address } from '../components/address.js';
import { HstAmountField } from './hst-amount-field.js';
import { formatHstUnits, hstUnits } from './hst-amounts.js';
import { TxHash } from './tx-hash.js';
import type { WithdrawalsApi } from './withdrawals-api.js';
import { useWithdrawForm, useWithdrawalList } from './use-withdrawals.js';

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
  const { list, loadError, load } = useWithdrawalList(api, onChange);
  const form = useWithdrawForm({ api, availableUnits, defaultTo, onChange, load });
  const { amount, setAmount, to, setTo, busy, error, status, amountInput, toInput, submit } = form;

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
      <table className="withdrawals stacked-rows">
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
              <td data-label="Requested">
                <When iso={w.requestedAt} />
              </td>
              <td data-label="Amount" className="amount">
                {formatHstUnits(hstUnits(w.amount))}
              </td>
              <td data-label="Status">
                <span className={`badge status-${w.status}`}>
                  {WITHDRAWAL_STATUS_TEXT[w.status]}
                </span>
                {w.status === 'failed' && w.lastError !== null && (
                  <span className="status-note">{w.lastError}</span>
                )}
                {w.status === 'paid' && w.settledAt !== null && (
                  <span className="status-note">
                    <When iso={w.settledAt} />
                  </span>
                )}
              </td>
              <td data-label="To">
                <Address address={w.to} short />
              </td>
              <td data-label="Transaction">
                {w.txHash === null ? '—' : <TxHash hash={w.txHash} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
