import { useCallback, useEffect, useState } from 'react';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';

/** Small pieces the console's screens share. */

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A date and time in the reader's locale; the ISO string stays in `dateTime`. */
export function When({ iso }: { iso: string | null }) {
  if (iso === null) return <span className="admin-muted">—</span>;
  return <time dateTime={iso}>{new Date(iso).toLocaleString()}</time>;
}

/** HST as the admin API gives it (an exact decimal string), read into base units and written back. */
export function Hst({ amount }: { amount: string }) {
  return <span className="admin-hst">{formatHstUnits(hstUnits(amount))}</span>;
}

/** What happened last: a polite status, or an alert for an error. */
export function Outcome({ text, tone }: { text: string | null; tone: 'ok' | 'error' }) {
  return tone === 'error' && text !== null ? (
    <p role="alert" className="admin-error">
      {text}
    </p>
  ) : (
    <p role="status" aria-live="polite" className="admin-notice">
      {text}
    </p>
  );
}

/**
 * A paged listing: the first page on mount (and when `load` changes), `more()` for the next. A
 * failure is kept as text for the screen to show.
 */
export function usePaged<T>(
  load: (after: string | null) => Promise<{ items: readonly T[]; next: string | null }>,
) {
  const [items, setItems] = useState<readonly T[] | null>(null);
  const [next, setNext] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const page = await load(null);
      setItems(page.items);
      setNext(page.next);
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, [load]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const more = async () => {
    if (next === null) return;
    try {
      const page = await load(next);
      setItems((current) => [...(current ?? []), ...page.items]);
      setNext(page.next);
    } catch (e) {
      setError(errorText(e));
    }
  };
  return { items, next, error, reload, more };
}
