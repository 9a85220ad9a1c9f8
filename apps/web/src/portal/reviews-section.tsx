import { useMemo } from 'react';
import type { DeveloperGame } from '@coinop/protocol';
import { reviewClient } from '../reviews/review-client.js';
import { ReviewQueue } from '../reviews/review-queue.js';
import { useSession } from '../session/session.js';

/**
 * The game's review queue (docs/reference/review-queue.md): its scores that stand out or that
 * players reported, and the attempts its score rules refused. The developer approves or voids,
 * as the operator can.
 */
export function ReviewsSection({ game }: { game: DeveloperGame }) {
  const { state } = useSession();
  const token = state.status === 'signed-in' ? state.token : null;
  const client = useMemo(
    () => reviewClient(`/api/developer/games/${encodeURIComponent(game.id)}/reviews`, () => token),
    [game.id, token],
  );
  return (
    <section className="portal-section" aria-labelledby="reviews-heading">
      <h2 id="reviews-heading">Score reviews</h2>
      <p className="muted">
        Scores of this game that stand out against their board, scores players reported, and the
        attempts your score rules refused. Approve to keep a score; void to take it off its board
        (payouts still held are re-settled). The player reads your reason.
      </p>
      <ReviewQueue client={client} showGame={false} cardHeading="h3" />
    </section>
  );
}
