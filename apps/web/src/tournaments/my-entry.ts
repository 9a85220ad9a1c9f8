import { useEffect, useState } from 'react';
import type { TournamentEntry } from '@coinop/protocol';
import { useSession } from '../session/session.js';

/**
 * The signed-in player's own entry in a tournament's round (attempts used and left, rank and best)
 * from `GET /player/tournaments/{id}/entry`. Read again when `roundId` or `reads` changes, when HST
 * moved in this page (`moneyMoves`: a round's play or score), and when
 * the page becomes visible again (the player played in another tab, or came back from the game).
 * Null when nobody is signed in, or until it is known (a failed read leaves it unknown).
 */
export function useMyEntry(
  tournamentId: string,
  roundId: string | null,
  reads: number,
): TournamentEntry | null {
  const { state, call, moneyMoves } = useSession();
  const playerId = state.status === 'signed-in' ? state.player.playerId : null;
  const [entry, setEntry] = useState<TournamentEntry | null>(null);
  const [visits, setVisits] = useState(0);

  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === 'visible') setVisits((n) => n + 1);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, []);

  useEffect(() => {
    if (playerId === null || roundId === null) {
      setEntry(null);
      return;
    }
    let stopped = false;
    const query = `roundId=${encodeURIComponent(roundId)}`;
    call<TournamentEntry>(`/player/tournaments/${encodeURIComponent(tournamentId)}/entry?${query}`)
      .then((found) => {
        if (!stopped) setEntry(found);
      })
      .catch(() => {
        if (!stopped) setEntry(null);
      });
    return () => {
      stopped = true;
    };
  }, [playerId, tournamentId, roundId, reads, visits, moneyMoves, call]);
  // An entry of another round (the page moved on to the next) is not this round's.
  return entry !== null && entry.roundId === roundId ? entry : null;
}
