import { useCallback, useEffect, useId, useState } from 'react';
import type { ReviewItem } from '@coinop/protocol';
import type { ReviewClient, ReviewFilter } from './review-client.js';
import { ReviewCard } from './review-card.js';
import { KIND_LABELS, STATE_LABELS } from './review-words.js';
import './reviews.css';

/**
 * The review queue (docs/reference/review-queue.md), newest first with filters, twenty at a
 * time: the operator's every game (`showGame`), or one game's in the developer portal.
 */
export function ReviewQueue({
  client,
  showGame,
  cardHeading = 'h2',
}: {
  client: ReviewClient;
  showGame: boolean;
  /** The cards' heading level: under the screen's h1 (console), or a section's h2 (portal). */
  cardHeading?: 'h2' | 'h3';
}) {
  const ids = useId();
  const [filter, setFilter] = useState<ReviewFilter>({ state: 'open', kind: '' });
  const [items, setItems] = useState<readonly ReviewItem[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      try {
        const page = await client.list(filter, after);
        setItems((shown) => (after === null ? page.reviews : [...(shown ?? []), ...page.reviews]));
        setCursor(page.nextCursor);
        setError(null);
      } catch (e) {
        setError(`Could not load the queue: ${(e as Error).message}`);
      }
    },
    [client, filter],
  );
  useEffect(() => void load(null), [load]);

  const resolved = (item: ReviewItem, action: 'approve' | 'void') => {
    setNotice(`${item.playerName}'s score ${action === 'void' ? 'voided' : 'kept'}.`);
    void load(null);
  };
  const select = (name: keyof ReviewFilter, options: Record<string, string>, label: string) => (
    <div className="review-filter">
      <label htmlFor={`${ids}-${name}`}>{label}</label>
      <select
        id={`${ids}-${name}`}
        value={filter[name]}
        onChange={(e) => setFilter((f) => ({ ...f, [name]: e.target.value }))}
      >
        <option value="">All</option>
        {Object.entries(options).map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <div className="review-queue">
      <div className="review-filters">
        {select('state', STATE_LABELS, 'State')}
        {select('kind', KIND_LABELS, 'Kind')}
      </div>
      <p role="status" aria-live="polite" className="review-notice">
        {notice}
      </p>
      {error !== null && (
        <p role="alert" className="review-error">
          {error}
        </p>
      )}
      {items === null ? (
        error === null && <p role="status">Loading the queue…</p>
      ) : items.length === 0 ? (
        <p className="review-muted">
          Nothing here. Flagged, reported and refused scores land here.
        </p>
      ) : (
        <ul className="review-list" aria-label="Reviews">
          {items.map((item) => (
            <ReviewCard
              key={item.id}
              client={client}
              item={item}
              showGame={showGame}
              Heading={cardHeading}
              onResolved={resolved}
            />
          ))}
        </ul>
      )}
      {cursor !== null && (
        <button type="button" onClick={() => void load(cursor)}>
          More
        </button>
      )}
    </div>
  );
}
