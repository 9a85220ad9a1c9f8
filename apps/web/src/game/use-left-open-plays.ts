import { useEffect, useState } from 'react';
import type { ActivityItem, ActivityPage } from '@coinop/protocol';
import { useSession } from '../session/session.js';

export type PlayLine = Extract<ActivityItem, { kind: 'play' }>;

/**
 * The player's recent plays the open-play notice looks through: an open play ends within the
 * play TTL (an hour by default), so it is among the newest of them.
 */
const RECENT_PLAYS = 50;

/**
 * The signed-in player's paid plays on this game that are still open and not the one the page's
 * game has now (`current`): plays left behind by a reload, Back or a closed tab, which no game
 * can finish from this page. Read again whenever HST moves for the player.
 */
export function useLeftOpenPlays(gameId: string, current: string | null): PlayLine[] {
  const session = useSession();
  const { call, moneyMoves } = session;
  const playerId = session.state.status === 'signed-in' ? session.state.player.playerId : null;
  const [plays, setPlays] = useState<PlayLine[]>([]);

  useEffect(() => {
    setPlays([]);
    if (playerId === null) return undefined;
    let live = true;
    call<ActivityPage>(`/player/activity?kind=play&limit=${RECENT_PLAYS}`).then(
      (page) => {
        if (!live) return;
        const now = Date.now();
        setPlays(
          page.items.filter(
            (item): item is PlayLine =>
              item.kind === 'play' &&
              item.status === 'open' &&
              item.gameId === gameId &&
              item.cost !== '0' &&
              Date.parse(item.expiresAt) > now,
          ),
        );
      },
      // The notice is extra: without the read the page is as it was.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [call, gameId, playerId, moneyMoves]);

  return plays.filter((play) => play.id !== current);
}
