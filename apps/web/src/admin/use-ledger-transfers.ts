import { useCallback, useEffect, useRef, useState } from 'react';
import type { LedgerTransfer } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { errorText } from './parts.js';

/**
 * The transfer list's filters as the console's URL holds them (`/admin/ledger?player=…&kind=…`),
 * so a filtered view is a link and back/forward walk the filters. Dates are UTC days; the API
 * gets RFC 3339 instants, `to` the start of the day after (the range includes the `to` day).
 */
export interface TransferFilters {
  readonly account: string;
  readonly player: string;
  readonly kind: string;
  readonly reason: string;
  /** YYYY-MM-DD, UTC. */
  readonly from: string;
  readonly to: string;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export function filtersOf(search: string): TransferFilters {
  const q = new URLSearchParams(search);
  const text = (name: string) => q.get(name)?.trim() ?? '';
  return {
    account: text('account'),
    player: text('player'),
    kind: text('kind'),
    reason: text('reason'),
    from: text('from'),
    to: text('to'),
  };
}

/** The console URL of a filtered view: only the filters given, in a fixed order. */
export function ledgerHref(filters: TransferFilters): string {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value !== '') q.set(name, value);
  return q.size === 0 ? '/admin/ledger' : `/admin/ledger?${q}`;
}

/** The API's query for the filters; a day that is not a date is sent as typed, for its 400. */
function apiQuery(filters: TransferFilters): Record<string, string | null> {
  const dayAfter = (day: string) => {
    const next = new Date(`${day}T00:00:00Z`);
    next.setUTCDate(next.getUTCDate() + 1);
    return next.toISOString().replace('.000Z', 'Z');
  };
  return {
    account: filters.account || null,
    player: filters.player || null,
    kind: filters.kind || null,
    reason: filters.reason || null,
    from:
      filters.from === ''
        ? null
        : DAY.test(filters.from)
          ? `${filters.from}T00:00:00Z`
          : filters.from,
    to: filters.to === '' ? null : DAY.test(filters.to) ? dayAfter(filters.to) : filters.to,
  };
}

/**
 * The list for the URL's filters: its first page whenever they (or `refresh`, bumped after a
 * mint) change, `older()` for the next keyset page. Only the latest load's answer is kept: one
 * for filters no longer shown, or a first page asked before a mint's refresh, is dropped.
 */
export function useLedgerTransfers(api: AdminApi, search: string, refresh: number) {
  const [transfers, setTransfers] = useState<readonly LedgerTransfer[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const latest = useRef(0);

  const load = useCallback(
    async (cursor: string | null) => {
      const asked = (latest.current += 1);
      setBusy(true);
      try {
        const page = await api.ledgerTransfers(apiQuery(filtersOf(search)), cursor);
        if (latest.current !== asked) return;
        setTransfers((current) => [...(cursor === null ? [] : (current ?? [])), ...page.transfers]);
        setNext(page.nextCursor);
        setError(null);
      } catch (e) {
        if (latest.current === asked) setError(errorText(e));
      } finally {
        if (latest.current === asked) setBusy(false);
      }
    },
    [api, search],
  );

  useEffect(() => {
    setTransfers(null);
    setNext(null);
    void load(null);
  }, [load, refresh]);

  const older = () => (next === null ? Promise.resolve() : load(next));
  return { transfers, next, error, busy, older };
}
