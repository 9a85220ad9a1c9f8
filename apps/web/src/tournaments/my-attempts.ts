import { useEffect, useState } from 'react';
import type { ActivityPage } from '@coinop/protocol';
import { useSession } from '../session/session.js';
import type { TournamentRound } from './tournament-api.js';

/** Activity pages read at most to count the player's plays on a round; past that, unknown. */
const PAGES_MAX = 5;
const PAGE_SIZE = 100;

/**
 * How many plays the signed-in player has opened on `round` (every play opened counts as an
 * attempt, scored or not), from their own activity: plays newest first, read back to the round's
 * start. Null when nobody is signed in, the round has no attempt limit, or the count is not
 * known (a read failed, or more plays since the round opened than a few pages hold).
 */
export function useMyAttempts(
  round: TournamentRound | null,
  limited: boolean,
  reads: number,
): number | null {
  const { state, call } = useSession();
  const playerId = state.status === 'signed-in' ? state.player.playerId : null;
  const [attempts, setAttempts] = useState<number | null>(null);
  const roundId = round?.id ?? null;
  const startsAt = round?.startsAt ?? null;
  useEffect(() => {
    setAttempts(null);
    if (playerId === null || roundId === null || startsAt === null || !limited) return;
    let stopped = false;
    void (async () => {
      const since = Date.parse(startsAt);
      let count = 0;
      let cursor: string | null = null;
      for (let page = 0; page < PAGES_MAX; page++) {
        const query: string = `kind=play&limit=${PAGE_SIZE}${cursor ? `&cursor=${cursor}` : ''}`;
        const body: ActivityPage = await call<ActivityPage>(`/player/activity?${query}`);
        let older = false;
        for (const item of body.items) {
          if (Date.parse(item.at) < since) older = true;
          else if (item.kind === 'play' && item.leaderboardId === roundId) count++;
        }
        if (older || body.nextCursor === null) {
          if (!stopped) setAttempts(count);
          return;
        }
        cursor = body.nextCursor;
      }
    })().catch(() => undefined);
    return () => {
      stopped = true;
    };
  }, [playerId, roundId, startsAt, limited, reads, call]);
  return attempts;
}
