import { useEffect, useState } from 'react';
import { Link } from '../router.js';
import type { ChainHalt } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { HALT_CAUSES } from './chain-screen.js';

/**
 * Over every screen of the console while the vault's senders are halted (issue 27): no HST
 * leaves the vault, and the operator should hear it wherever they are. Read again on each screen.
 */
export function ChainHaltBanner({ api, screen }: { api: AdminApi; screen: string }) {
  const [halt, setHalt] = useState<ChainHalt | null>(null);
  useEffect(() => {
    let live = true;
    api
      .chainStatus()
      .then((status) => live && setHalt(status.enabled ? (status.halt ?? null) : null))
      // The screens say what fails to load; the banner only speaks of a halt it read.
      .catch(() => live && setHalt(null));
    return () => {
      live = false;
    };
  }, [api, screen]);
  // The chain screen says it itself, with the form that resumes.
  if (halt === null || screen === 'chain') return null;
  return (
    <div role="alert" className="admin-halt-banner">
      <strong>No HST leaves the vault:</strong> {HALT_CAUSES[halt.cause]}. Withdrawals, settlements
      and refunds wait. <Link href="/admin/chain">Review and resume</Link>
    </div>
  );
}
