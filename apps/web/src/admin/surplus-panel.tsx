import { useId, useState, type FormEvent } from 'react';
import type { ChainSurplus } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { Outcome, When, errorText } from './parts.js';
import { checksummed } from '../components/address.js';

type Action = 'credit' | 'sweep' | 'cover';

/** Each way to settle a surplus: what the field asks for, and what the button says. */
const ACTIONS: Record<Action, { label: string; field: string; button: string }> = {
  credit: {
    label: 'Credit it to an account',
    field: 'Account, player or developer id, wallet, or “arcade”',
    button: 'Credit',
  },
  sweep: { label: 'Send it out to an address', field: 'Address (0x…)', button: 'Sweep' },
  cover: {
    label: 'Cover a shortfall with it',
    field: 'Which shortfall, and why (recorded)',
    button: 'Cover',
  },
};

/**
 * HST sent to the vault without a deposit (a plain transfer): it credits nobody and keeps the
 * audit green. Each unsettled one can be credited to an account, swept out to an address (a
 * withdrawal from the arcade's account), or used to cover a shortfall, once.
 */
export function SurplusPanel({
  api,
  surplus,
  onSettled,
}: {
  api: AdminApi;
  surplus: readonly ChainSurplus[];
  onSettled: () => Promise<void>;
}) {
  return (
    <section aria-labelledby="surplus-heading" className="admin-panel">
      <h2 id="surplus-heading">Surplus</h2>
      <p className="admin-muted">
        HST sent to the vault without a deposit. It is safe in the vault and owed to nobody until
        you settle it.
      </p>
      {surplus.length === 0 ? (
        <p className="admin-muted">None: every token in the vault came with a deposit.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table stacked-rows">
            <caption className="visually-hidden">Surplus, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Amount</th>
                <th scope="col">From</th>
                <th scope="col">Settled</th>
              </tr>
            </thead>
            <tbody>
              {surplus.map((s) => (
                <tr key={`${s.chainId}:${s.txHash}:${s.logIndex}`}>
                  <td data-label="Received">
                    <When iso={s.seenAt} />
                    <span className="admin-sub admin-mono">
                      block {s.blockNumber}, {s.txHash}:{s.logIndex}
                    </span>
                  </td>
                  <td data-label="Amount">
                    <span className="admin-hst">{s.amount} HST</span>
                  </td>
                  <td data-label="From" className="admin-mono">
                    {checksummed(s.from)}
                  </td>
                  <td data-label="Settled">
                    {s.status === 'unsolicited' ? (
                      <SettleForms api={api} surplus={s} onSettled={onSettled} />
                    ) : (
                      <Settled surplus={s} />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Settled({ surplus }: { surplus: ChainSurplus }) {
  const what =
    surplus.status === 'credited'
      ? `credited to ${surplus.creditedAccountId}`
      : surplus.status === 'swept'
        ? `swept (withdrawal ${surplus.withdrawalId})`
        : `covers a shortfall: ${surplus.note}`;
  return (
    <>
      {what}
      <span className="admin-sub">
        <When iso={surplus.settledAt} />
      </span>
    </>
  );
}

function SettleForms({
  api,
  surplus,
  onSettled,
}: {
  api: AdminApi;
  surplus: ChainSurplus;
  onSettled: () => Promise<void>;
}) {
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);
  const key = `${surplus.txHash}:${surplus.logIndex}`;
  const settle = async (action: Action, value: string) => {
    const sure = window.confirm(
      `${ACTIONS[action].label}: ${surplus.amount} HST (${value})? This is done once.`,
    );
    if (!sure) return;
    setOutcome(null);
    try {
      if (action === 'credit') await api.creditSurplus(key, value);
      else if (action === 'sweep') await api.sweepSurplus(key, value);
      else await api.coverShortfall(key, value);
      await onSettled();
    } catch (e) {
      setOutcome({ text: `Could not ${action} it: ${errorText(e)}`, tone: 'error' });
    }
  };
  return (
    <details className="admin-settle">
      <summary>Settle…</summary>
      {(Object.keys(ACTIONS) as Action[]).map((action) => (
        <SettleForm key={action} action={action} onSubmit={(v) => settle(action, v)} />
      ))}
      <Outcome text={outcome?.text ?? null} tone={outcome?.tone ?? 'ok'} />
    </details>
  );
}

function SettleForm({
  action,
  onSubmit,
}: {
  action: Action;
  onSubmit: (value: string) => Promise<void>;
}) {
  const inputId = useId();
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() === '') return;
    setBusy(true);
    try {
      await onSubmit(value.trim());
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={(e) => void submit(e)}
      className="admin-search"
      aria-label={ACTIONS[action].label}
    >
      <div className="field">
        <label htmlFor={inputId}>{ACTIONS[action].field}</label>
        <input
          id={inputId}
          value={value}
          spellCheck={false}
          autoComplete="off"
          onChange={(e) => setValue(e.target.value)}
        />
      </div>
      <button type="submit" disabled={busy || value.trim() === ''}>
        {ACTIONS[action].button}
      </button>
    </form>
  );
}
