import { useId, useState, type FormEvent } from 'react';
import {
  LedgerTransferKinds,
  LedgerTransferReasons,
  type LedgerAccount,
  type LedgerTransfer,
} from '@coinop/protocol';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import { checksummed, shortAddress } from '../components/address.js';
import { Link, navigate, useLocation } from '../router.js';
import type { AdminApi } from './admin-api.js';
import { Outcome, When } from './parts.js';
import './ledger-transfers.css';
import {
  filtersOf,
  ledgerHref,
  useLedgerTransfers,
  type TransferFilters,
} from './use-ledger-transfers.js';

/**
 * Every transfer of the ledger, newest first (issue 31): filters in the URL, a keyset "Older"
 * button, each side named with its owner and each player linked to their console page.
 */
export function TransfersPanel({ api, refresh }: { api: AdminApi; refresh: number }) {
  const { search } = useLocation();
  const filters = filtersOf(search);
  const { transfers, next, error, busy, older } = useLedgerTransfers(api, search, refresh);
  const filtered = Object.values(filters).some((v) => v !== '');

  return (
    <section aria-labelledby="transfers-heading" className="admin-panel">
      <h2 id="transfers-heading">Transfers</h2>
      {/* Keyed by the URL: back and forward put the form back as the list is. */}
      <TransferFilterForm key={search} filters={filters} />
      {error !== null && <Outcome text={`Could not list the transfers: ${error}`} tone="error" />}
      {transfers === null ? (
        error === null && <p role="status">Loading transfers…</p>
      ) : transfers.length === 0 ? (
        <p className="admin-empty">
          {filtered ? 'No transfers match these filters.' : 'No transfers yet.'}
        </p>
      ) : (
        <TransferTable transfers={transfers} filtered={filtered} />
      )}
      {next !== null && (
        <button type="button" disabled={busy} onClick={() => void older()}>
          Older transfers
        </button>
      )}
    </section>
  );
}

function TransferFilterForm({ filters }: { filters: TransferFilters }) {
  const ids = { player: useId(), account: useId(), kind: useId(), reason: useId() };
  const dates = { from: useId(), to: useId() };
  const [form, setForm] = useState(filters);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (name: keyof TransferFilters) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [name]: e.target.value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = { ...form, player: form.player.trim(), account: form.account.trim() };
    if (trimmed.player !== '' && trimmed.account !== '') {
      setProblem('Filter by a player or by an account, not both.');
      return;
    }
    if (trimmed.from !== '' && trimmed.to !== '' && trimmed.from > trimmed.to) {
      setProblem('The first day must not be after the last.');
      return;
    }
    setProblem(null);
    navigate(ledgerHref(trimmed));
  };

  return (
    <form onSubmit={submit} className="admin-ledger-filters" noValidate>
      <div className="field">
        <label htmlFor={ids.player}>Player id or wallet</label>
        <input
          id={ids.player}
          value={form.player}
          spellCheck={false}
          autoComplete="off"
          onChange={set('player')}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.account}>Account id</label>
        <input
          id={ids.account}
          value={form.account}
          spellCheck={false}
          autoComplete="off"
          onChange={set('account')}
        />
      </div>
      <div className="field">
        <label htmlFor={ids.kind}>Kind</label>
        <select id={ids.kind} value={form.kind} onChange={set('kind')}>
          <option value="">Any kind</option>
          {LedgerTransferKinds.map((k) => (
            <option key={k} value={k}>
              {k}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.reason}>Reason</label>
        <select id={ids.reason} value={form.reason} onChange={set('reason')}>
          <option value="">Any reason</option>
          {LedgerTransferReasons.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={dates.from}>From (UTC day)</label>
        <input id={dates.from} type="date" value={form.from} onChange={set('from')} />
      </div>
      <div className="field">
        <label htmlFor={dates.to}>To (UTC day, included)</label>
        <input id={dates.to} type="date" value={form.to} onChange={set('to')} />
      </div>
      <div className="admin-ledger-filter-actions">
        <button type="submit" className="primary">
          Apply filters
        </button>
        <Link href="/admin/ledger">Clear</Link>
      </div>
      <Outcome text={problem} tone="error" />
    </form>
  );
}

function TransferTable({
  transfers,
  filtered,
}: {
  transfers: readonly LedgerTransfer[];
  filtered: boolean;
}) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table stacked-rows admin-transfers">
        <caption className="visually-hidden">
          Ledger transfers, newest first{filtered ? ', filtered' : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Reason</th>
            <th scope="col">From (debit)</th>
            <th scope="col">To (credit)</th>
            <th scope="col" className="admin-amount">
              Amount
            </th>
            <th scope="col">Play</th>
          </tr>
        </thead>
        <tbody>
          {transfers.map((t) => (
            <tr key={t.id} data-transfer={t.id}>
              <th scope="row">
                <When iso={t.createdAt} />
                <span className="admin-mono admin-sub" title={t.id}>
                  {short(t.id)}
                </span>
              </th>
              <td data-label="Reason">
                {t.reason}
                <span className="admin-sub">{t.kind}</span>
              </td>
              <td data-label="From">
                <AccountCell account={t.debit} />
              </td>
              <td data-label="To">
                <AccountCell account={t.credit} />
              </td>
              <td data-label="Amount" className="admin-amount">
                {/* The exact string, read into base units and grouped: never a JS number. */}
                <span className="admin-hst">{formatHstUnits(hstUnits(t.amount))}</span>
              </td>
              <td data-label="Play" className="admin-mono">
                {t.playId === null ? (
                  <span className="admin-muted">—</span>
                ) : (
                  <abbr title={t.playId}>{short(t.playId)}</abbr>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A wallet or vault address in an account's label (the API sends them lowercase): checksummed,
 * and in the cell shortened to its ends (0x1234…AbCd), the whole label in its title.
 */
const ADDRESS = /0x[0-9a-fA-F]{40}\b/g;

function AccountCell({ account }: { account: LedgerAccount }) {
  if (account.playerId !== null) {
    return (
      <Link href={`/admin/players/${encodeURIComponent(account.playerId)}`}>{account.label}</Link>
    );
  }
  const full = account.label.replace(ADDRESS, checksummed);
  const label =
    account.kind === 'escrow'
      ? `Escrow of play ${short(account.accountId)}`
      : full.replace(ADDRESS, shortAddress);
  return <span title={full}>{label}</span>;
}

/**
 * The last 8 characters of an id, enough to tell rows apart (a UUIDv7 begins with its time, so
 * ids made in one millisecond share their start); the full id is in its title.
 */
function short(id: string): string {
  return `…${id.slice(-8)}`;
}
