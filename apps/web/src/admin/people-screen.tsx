import { useCallback, useId, useState, type FormEvent } from 'react';
import type { AdminDeveloper, AdminPlayer } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { Link } from '../router.js';
import { Hst, Outcome, When, usePaged } from './parts.js';
import { checksummed } from '../components/address.js';

/**
 * Players or developers, newest first, searched by id, wallet or (players) name, with their
 * balances. A player's name opens their screen: balances and history. "Balance" is what the
 * account can spend, whatever brought it in (a developer's takes deposits too); "Reserved" is every
 * pending debit, open plays and withdrawals not yet paid alike (operator review, finding 4).
 */
export function PeopleScreen({ api, kind }: { api: AdminApi; kind: 'players' | 'developers' }) {
  const inputId = useId();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const players = kind === 'players';
  const load = useCallback(
    (before: string | null) =>
      players ? api.players(search, before) : api.developers(search, before),
    [api, players, search],
  );
  const { items, next, error, more } = usePaged<AdminPlayer | AdminDeveloper>(load);
  const title = players ? 'Players' : 'Developers';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSearch(typed.trim());
  };

  return (
    <section aria-labelledby="people-heading">
      <h1 id="people-heading">{title}</h1>
      <form className="admin-search" role="search" onSubmit={submit}>
        <div className="field">
          <label htmlFor={inputId}>
            {players ? 'Search by id, wallet or name' : 'Search by id or wallet'}
          </label>
          <input
            id={inputId}
            value={typed}
            spellCheck={false}
            autoComplete="off"
            maxLength={100}
            onChange={(e) => setTyped(e.target.value)}
          />
        </div>
        <button type="submit">Search</button>
      </form>
      {error !== null && <Outcome text={`Could not load the ${kind}: ${error}`} tone="error" />}
      {items === null ? (
        error === null && <p role="status">Loading…</p>
      ) : items.length === 0 ? (
        <p className="admin-empty">
          {search === '' ? `No ${kind} yet.` : `No ${kind} match “${search}”.`}
        </p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table stacked-rows">
            <caption className="visually-hidden">
              {title}
              {search === '' ? ', newest first' : ` matching ${search}`}
            </caption>
            <thead>
              <tr>
                <th scope="col">{players ? 'Name' : 'Developer'}</th>
                <th scope="col">Wallet</th>
                <th scope="col">Balance</th>
                <th scope="col">Reserved</th>
                {!players && <th scope="col">Games</th>}
                <th scope="col">Since</th>
              </tr>
            </thead>
            <tbody>
              {items.map((p) => {
                const id = 'playerId' in p ? p.playerId : p.developerId;
                return (
                  <tr key={id}>
                    <th scope="row">
                      {'name' in p ? (
                        <Link href={`/admin/players/${encodeURIComponent(id)}`}>{p.name}</Link>
                      ) : (
                        'Developer'
                      )}
                      <span className="admin-mono admin-sub">{id}</span>
                    </th>
                    <td className="admin-mono" data-label="Wallet">
                      {p.wallet === null ? '—' : checksummed(p.wallet)}
                    </td>
                    <td data-label="Balance">
                      <Hst amount={p.balance} />
                    </td>
                    <td data-label="Reserved">
                      <Hst amount={p.pending} />
                    </td>
                    {'games' in p && <td data-label="Games">{p.games}</td>}
                    <td data-label="Since">
                      <When iso={p.createdAt} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {next !== null && (
        <button type="button" onClick={() => void more()}>
          More {kind}
        </button>
      )}
    </section>
  );
}
