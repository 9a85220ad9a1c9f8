import type { ReviewDetail, ReviewItem, ReviewPage, ReviewVerdict } from '@coinop/protocol';
import { ApiError, requestJson } from '../api.js';

/**
 * The review queue as a screen reads it (docs/reference/review-queue.md): the operator's
 * (`/api/admin/reviews`, the admin token) or one game's for its developer
 * (`/api/developer/games/{gameId}/reviews`, the portal's session). Same answers, same actions.
 */
export interface ReviewClient {
  list(filter: ReviewFilter, cursor: string | null): Promise<ReviewPage>;
  detail(id: string): Promise<ReviewDetail>;
  /** The replay text the score (or the refused attempt) came with. */
  replay(id: string): Promise<string>;
  /** The game's current verifier re-run on the replay: its verdict, nothing written. */
  verify(id: string): Promise<ReviewVerdict>;
  resolve(id: string, action: 'approve' | 'void', reason: string): Promise<ReviewItem>;
}

export interface ReviewFilter {
  readonly state: string;
  readonly kind: string;
}

const PAGE = 20;

/** A client of the queue at `base` (`/api/admin/reviews`, or a game's) with a bearer token. */
export function reviewClient(base: string, token: () => string | null): ReviewClient {
  const call = <T>(path: string, body?: unknown) =>
    requestJson<T>(`${base}${path}`, { token: token(), ...(body === undefined ? {} : { body }) });
  const id = encodeURIComponent;
  return {
    list: (filter, cursor) => {
      const query = new URLSearchParams({ limit: String(PAGE) });
      if (filter.state !== '') query.set('state', filter.state);
      if (filter.kind !== '') query.set('kind', filter.kind);
      if (cursor !== null) query.set('cursor', cursor);
      return call<ReviewPage>(`?${query}`);
    },
    detail: (reviewId) => call<ReviewDetail>(`/${id(reviewId)}`),
    replay: async (reviewId) => {
      const res = await fetch(`${base}/${id(reviewId)}/replay`, {
        headers: { authorization: `Bearer ${token() ?? ''}` },
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { code?: string; message?: string };
        throw new ApiError(res.status, body?.code ?? '', body?.message ?? `${res.status}`);
      }
      return res.text();
    },
    verify: (reviewId) => call<ReviewVerdict>(`/${id(reviewId)}/verify`, {}),
    resolve: (reviewId, action, reason) =>
      call<ReviewItem>(`/${id(reviewId)}/${action}`, { reason }),
  };
}
