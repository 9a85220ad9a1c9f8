import { useId, useState } from 'react';
import type { ReviewItem } from '@coinop/protocol';
import { scoreText } from '../components/score.js';
import type { ReviewClient } from './review-client.js';
import { ReviewEvidence } from './review-evidence.js';
import { KIND_LABELS, STATE_LABELS, actorText, whyText } from './review-words.js';

/** One queue item: what, whose, why; "Evidence" opens the panel below it. */
export function ReviewCard({
  client,
  item,
  showGame,
  Heading,
  onResolved,
}: {
  client: ReviewClient;
  item: ReviewItem;
  showGame: boolean;
  Heading: 'h2' | 'h3';
  onResolved: (item: ReviewItem, action: 'approve' | 'void') => void;
}) {
  const headingId = useId();
  const [open, setOpen] = useState(false);
  const refusal = item.state === 'refused';
  return (
    <li className={`review-card state-${item.state}`} aria-labelledby={headingId}>
      <div className="review-card-head">
        <Heading id={headingId} className="review-card-title">
          {item.playerName}: {scoreText(item.score, item.scoreUnit)}
        </Heading>
        <span className={`review-badge kind-${refusal ? 'refusal' : item.kind}`}>
          {KIND_LABELS[item.kind] ?? item.kind}
        </span>
        {!refusal && <span className="review-badge">{STATE_LABELS[item.state]}</span>}
      </div>
      <p className="review-muted">
        {showGame && `${item.gameName} · `}
        {item.tierName} · {new Date(item.createdAt).toLocaleString()}
      </p>
      <p className="review-why">{whyText(item)}</p>
      {item.resolution !== null && (
        <p>
          {item.state === 'voided' ? 'Voided' : 'Kept'} by {actorText(item.resolution.by)}:{' '}
          <q>{item.resolution.reason}</q>
        </p>
      )}
      <button type="button" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
        {open ? 'Hide evidence' : item.state === 'open' ? 'Evidence and decision' : 'Evidence'}
      </button>
      {open && <ReviewEvidence client={client} item={item} onResolved={onResolved} />}
    </li>
  );
}
