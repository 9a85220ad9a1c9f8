import { useEffect, useState } from 'react';
import type { AdminApi } from './admin-api.js';

/**
 * Whether the arcade runs in chain mode (a vault holds its HST), or null until the server says.
 * A status that fails to load counts as no chain mode: the screens then offer what a ledger
 * arcade may do, and the server still refuses what chain mode forbids.
 */
export function useChainMode(api: AdminApi): boolean | null {
  const [chainMode, setChainMode] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    api
      .chainStatus()
      .then((status) => live && setChainMode(status.enabled))
      .catch(() => live && setChainMode(false));
    return () => {
      live = false;
    };
  }, [api]);
  return chainMode;
}
