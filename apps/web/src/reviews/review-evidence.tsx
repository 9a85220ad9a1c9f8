import { useEffect, useState } from 'react';
import { countText, type ReviewDetail, type ReviewItem } from '@coinop/protocol';
import { scoreText } from '../components/score.js';
import { ReplayPanel } from './replay-panel.js';
import { ResolveForm } from './resolve-form.js';
import type { ReviewClient } from './review-client.js';
import { REPORT_LABELS, durationText } from './review-words.js';

const at = (iso: string) => new Date(iso).toLocaleString();
const num = (value: number | null, unit: string) => (value === null ? '—' : scoreText(value, unit));

/**
 * What a reviewer reads before deciding: the timings, the tier's statistics, the player's other
 * scores and refused attempts there, the reports, the replay; then Approve or Void.
 */
export function ReviewEvidence({
  client,
  item,
  onResolved,
}: {
  client: ReviewClient;
  item: ReviewItem;
  onResolved: (item: ReviewItem, action: 'approve' | 'void') => void;
}) {
  const [detail, setDetail] = useState<ReviewDetail | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    client.detail(item.id).then(setDetail, (e: unknown) => setError((e as Error).message));
  }, [client, item.id]);
  const unit = item.scoreUnit;

  if (error !== null)
    return (
      <p role="alert" className="review-error">
        {error}
      </p>
    );
  if (detail === null) return <p role="status">Loading the evidence…</p>;
  const { board } = detail;
  return (
    <div className="review-evidence">
      <dl className="review-facts">
        <dt>Play opened</dt>
        <dd>{at(item.timings.playOpenedAt)}</dd>
        <dt>Score arrived</dt>
        <dd>{at(item.timings.scoredAt)}</dd>
        <dt>Play lasted</dt>
        <dd>{durationText(item.timings.playMs)}</dd>
        <dt>Tier now</dt>
        <dd>
          {countText(board.players, 'player')} · median {num(board.median, unit)} · MAD{' '}
          {num(board.mad, unit)} · best {num(board.best, unit)}
        </dd>
        <dt>Refused attempts</dt>
        <dd>{detail.playerRefusals} by this player on this tier</dd>
      </dl>
      <h3>{item.playerName}&apos;s latest scores on this tier</h3>
      {detail.playerScores.length === 0 ? (
        <p className="review-muted">None accepted.</p>
      ) : (
        <ul className="review-scores">
          {detail.playerScores.map((s) => (
            <li key={s.scoreId} className={s.scoreId === item.scoreId ? 'this' : undefined}>
              <strong>{scoreText(s.score, unit)}</strong>{' '}
              <span className="review-muted">
                {at(s.scoredAt)} · in{' '}
                {durationText(Date.parse(s.scoredAt) - Date.parse(s.playOpenedAt))}
                {s.voided && ' · voided'}
              </span>
            </li>
          ))}
        </ul>
      )}
      {detail.reports.length > 0 && (
        <>
          <h3>Reports ({detail.reports.length})</h3>
          <ul className="review-scores">
            {detail.reports.map((r, i) => (
              <li key={i}>
                <strong>{REPORT_LABELS[r.reason]}</strong> {r.note !== null && <q>{r.note}</q>}{' '}
                <span className="review-muted">{at(r.reportedAt)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {item.hasReplay && <ReplayPanel client={client} reviewId={item.id} />}
      {item.state === 'open' && <ResolveForm client={client} item={item} onResolved={onResolved} />}
    </div>
  );
}
