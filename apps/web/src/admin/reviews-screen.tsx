import { useMemo } from 'react';
import type { ReviewClient } from '../reviews/review-client.js';
import { ReviewQueue } from '../reviews/review-queue.js';
import type { AdminApi } from './admin-api.js';

/**
 * The review queue of every game (docs/reference/review-queue.md): outliers, players' reports
 * and refused attempts, with the evidence; approve or void with a reason the player reads.
 */
export function ReviewsScreen({ api }: { api: AdminApi }) {
  const client = useMemo<ReviewClient>(
    () => ({
      list: api.reviews,
      detail: api.review,
      replay: api.reviewReplay,
      verify: api.verifyReview,
      resolve: api.resolveReview,
    }),
    [api],
  );
  return (
    <section aria-labelledby="reviews-heading">
      <h1 id="reviews-heading">Reviews</h1>
      <p className="admin-muted">
        Scores that stand out against their board, scores players reported, and the attempts the
        games&apos; score rules refused. Approving keeps a score; voiding takes it off its board and
        re-settles the payouts it still holds. The player reads your reason.
      </p>
      <ReviewQueue client={client} showGame />
    </section>
  );
}
