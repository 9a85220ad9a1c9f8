import { useCallback, useEffect, useState } from 'react';
import { HistorySection } from '../history/history-section.js';
import { Link } from '../router.js';
import type { AdminPlayer } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { Hst, Outcome, When, errorText } from './parts.js';
import { checksummed } from '../components/address.js';
import { ProfileResetForm } from './profile-reset.js';

/**
 * `/admin/players/<id or wallet>`: one player's balances and their history, the same lines the
 * player sees on `/account`, newest first with "Load more".
 */
export function PlayerScreen({ api, player }: { api: AdminApi; player: string }) {
  const [profile, setProfile] = useState<AdminPlayer | null>(null);
  const [error, setError] = useState<string | null>(null);

  // Bumped after a profile reset: the player is read again, the screen kept while it loads.
  const [version, setVersion] = useState(0);
  useEffect(() => setProfile(null), [player]);
  useEffect(() => {
    let current = true;
    setError(null);
    api.player(player).then(
      (found) => current && setProfile(found),
      (e: unknown) => current && setError(errorText(e)),
    );
    return () => {
      current = false;
    };
  }, [api, player, version]);
  const read = useCallback((query: string) => api.playerActivity(player, query), [api, player]);

  return (
    <section aria-labelledby="player-heading" className="admin-player">
      <p>
        <Link href="/admin/players">← All players</Link>
      </p>
      <h1 id="player-heading">{profile?.name ?? 'Player'}</h1>
      {error !== null && <Outcome text={`Could not load the player: ${error}`} tone="error" />}
      {profile === null ? (
        error === null && <p role="status">Loading…</p>
      ) : (
        <>
          <dl className="admin-facts">
            <dt>Player id</dt>
            <dd className="admin-mono">{profile.playerId}</dd>
            <dt>Wallet</dt>
            <dd className="admin-mono">
              {profile.wallet === null ? '—' : checksummed(profile.wallet)}
            </dd>
            <dt>Ledger account</dt>
            <dd className="admin-mono">{profile.accountId}</dd>
            <dt>Balance</dt>
            <dd>
              <Hst amount={profile.balance} />
            </dd>
            {/* Every pending debit: open plays and withdrawals not yet paid. */}
            <dt>Reserved</dt>
            <dd>
              <Hst amount={profile.pending} />
            </dd>
            <dt>Since</dt>
            <dd>
              <When iso={profile.createdAt} />
            </dd>
          </dl>
          <p>
            <Link href={`/players/${encodeURIComponent(profile.playerId)}`}>Public page</Link>
          </p>
          <ProfileResetForm
            reloadKey={version}
            api={api}
            player={player}
            playerId={profile.playerId}
            onReset={() => setVersion((v) => v + 1)}
          />
          <HistorySection read={read} viewer="operator" />
        </>
      )}
    </section>
  );
}
