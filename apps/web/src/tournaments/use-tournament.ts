import { useCallback, useEffect, useState } from 'react';
import type { Game } from '@coinop/protocol';
import { ApiError, getGame } from '../api.js';
import { errorText } from '../portal/parts.js';
import { getTournament, type Tournament } from './tournament-api.js';
import { tournamentPhase } from './tournament-card.js';
import { useLiveBoards } from '../live/live.js';

/** While a round is past its end but not yet paid out, the page reads it again this often. */
const CLOSING_POLL_MS = 3_000;

/**
 * A tournament for its page, its game's cover, and its phase; read again on `reload`, whenever
 * the current round's board changes (live), and, while a round is closing, until it is paid out.
 */
export function useTournament(tournamentId: string) {
  const [tournament, setTournament] = useState<Tournament | null>(null);
  const [game, setGame] = useState<Game | null>(null);
  const [error, setError] = useState<{ missing: boolean; message: string } | null>(null);
  const [reads, setReads] = useState(0);
  const reload = useCallback(() => setReads((n) => n + 1), []);

  useEffect(() => {
    const abort = new AbortController();
    getTournament(tournamentId, abort.signal).then(
      (t) => {
        setTournament(t);
        setError(null);
      },
      (e: unknown) => {
        if (abort.signal.aborted) return;
        const missing = e instanceof ApiError && (e.status === 404 || e.status === 400);
        setError({ missing, message: errorText(e) });
      },
    );
    return () => abort.abort();
  }, [tournamentId, reads]);

  const gameId = tournament?.gameId ?? null;
  useEffect(() => {
    if (gameId === null) return;
    const abort = new AbortController();
    // The cover only: the page stands without it.
    getGame(gameId, abort.signal).then(setGame, () => undefined);
    return () => abort.abort();
  }, [gameId]);

  // The round's standings move live: each change to its board reads the tournament again.
  const roundId = tournament?.currentRound?.id ?? null;
  const roundBoard = useLiveBoards(gameId).get(roundId ?? '');
  useEffect(() => {
    if (roundBoard !== undefined) reload();
  }, [roundBoard, reload]);

  const phase = tournament ? tournamentPhase(tournament) : null;
  useEffect(() => {
    if (phase !== 'closing') return;
    const timer = setInterval(reload, CLOSING_POLL_MS);
    return () => clearInterval(timer);
  }, [phase, reload]);

  return { tournament, game, error, reads, reload, phase };
}
