import { useEffect, useMemo, useState } from 'react';
import type { DeveloperGame, GameStats, PublishRequest } from '@coinop/protocol';
import { reviewClient } from '../reviews/review-client.js';
import { useSession } from '../session/session.js';
import { errorText, usePortalApi } from './parts.js';

/** What the overview reads besides the game: each part loads on its own, and fails on its own. */
export interface GameGlance {
  /** The newest publish request; null when none; undefined while loading. */
  publishRequest: PublishRequest | null | undefined;
  /** Open reviews on the first page, and whether there are more; undefined while loading. */
  openReviews: { count: number; more: boolean } | undefined;
  stats: GameStats | undefined;
  errors: readonly string[];
}

export function useGameGlance(game: DeveloperGame): GameGlance {
  const api = usePortalApi();
  const { state } = useSession();
  const token = state.status === 'signed-in' ? state.token : null;
  const reviews = useMemo(
    () => reviewClient(`/api/developer/games/${encodeURIComponent(game.id)}/reviews`, () => token),
    [game.id, token],
  );
  const [glance, setGlance] = useState<GameGlance>({
    publishRequest: undefined,
    openReviews: undefined,
    stats: undefined,
    errors: [],
  });

  useEffect(() => {
    let live = true;
    const update = (part: Partial<GameGlance>) => live && setGlance((g) => ({ ...g, ...part }));
    const fail = (what: string) => (e: unknown) =>
      live &&
      setGlance((g) => ({
        ...g,
        errors: [...g.errors, `Could not load ${what}: ${errorText(e)}`],
      }));
    api
      .listPublishRequests(game.id)
      .then(([newest]) => update({ publishRequest: newest ?? null }), fail('the publish requests'));
    reviews
      .list({ state: 'open', kind: '' }, null)
      .then(
        (page) =>
          update({ openReviews: { count: page.reviews.length, more: page.nextCursor !== null } }),
        fail('the reviews'),
      );
    api.stats(game.id).then((stats) => update({ stats }), fail('the stats'));
    return () => {
      live = false;
    };
  }, [api, reviews, game.id]);
  return glance;
}
