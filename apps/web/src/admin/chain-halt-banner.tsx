import { useEffect, useState } from 'react';
import { Link } from '../router.js';
import type { ChainStatus } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { HALT_CAUSES } from './chain-screen.js';

/**
 * Over every screen of the console while no HST leaves the vault: while its senders are halted
 * (issue 27), or while the chain watcher fails (operator review, finding 2), the operator should
 * hear it wherever they are. Read again on each screen.
 */
export function ChainHaltBanner({ api, screen }: { api: AdminApi; screen: string }) {
  const [status, setStatus] = useState<ChainStatus | null>(null);
  useEffect(() => {
    let live = true;
    api
      .chainStatus()
      .then((next) => live && setStatus(next.enabled ? next : null))
      // The screens say what fails to load; the banner only speaks of a status it read.
      .catch(() => live && setStatus(null));
    return () => {
      live = false;
    };
  }, [api, screen]);
  // The chain screen says it itself, with the form that resumes.
  if (status === null || screen === 'chain') return null;
  if (status.halt) {
    return (
      <div role="alert" className="admin-halt-banner">
        <strong>No HST leaves the vault:</strong> {HALT_CAUSES[status.halt.cause]}. Withdrawals,
        settlements and refunds wait. <Link href="/admin/chain">Review and resume</Link>
      </div>
    );
  }
  if (status.state === 'failing') {
    return (
      <div role="alert" className="admin-halt-banner">
        <strong>The chain watcher is failing:</strong>{' '}
        {status.lastError?.message ?? 'no error recorded'}. Deposits are not credited, and
        withdrawals, settlements and refunds do not leave the vault while it fails.{' '}
        <Link href="/admin/chain">Review</Link>
      </div>
    );
  }
  return null;
}
