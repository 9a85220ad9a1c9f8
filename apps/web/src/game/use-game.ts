import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { Game } from '@coinop/protocol';
import { ApiError } from '../api.js';
import { loadGameOrPreview } from '../preview/preview-game.js';
import { useSession } from '../session/session.js';

/**
 * The game page's game: loaded (or its preview, for its developer and testers), read again when
 * a signed-in viewer may now see it, and named in the window's title. `tierId` is the tier (or
 * open tournament round, by the ids in `roundIds`) the player chose; a load keeps it if the game
 * still has it and picks the first tier otherwise.
 */
export function useGame(gameId: string, roundIds: RefObject<Set<string>>) {
  const session = useSession();
  const [game, setGame] = useState<Game | null>(null);
  const [error, setError] = useState<{ missing: boolean; message: string } | null>(null);
  const [tierId, setTierId] = useState('');

  // Read through a ref: a renewed token must not reload the page (and restart the game).
  const sessionNow = useRef(session);
  sessionNow.current = session;
  const load = useCallback(
    async (signal?: AbortSignal) => {
      const loaded = await loadGameOrPreview(gameId, sessionNow.current, signal);
      setGame(loaded);
      setTierId((current) =>
        loaded.leaderboards.some((b) => b.id === current) || roundIds.current.has(current)
          ? current
          : (loaded.leaderboards[0]?.id ?? ''),
      );
      return loaded;
    },
    [gameId, roundIds],
  );

  // Which route reads the game depends on whether a wallet is signed in: wait until that is known.
  const sessionKnown = session.state.status !== 'loading';
  useEffect(() => {
    if (!sessionKnown) return;
    const abort = new AbortController();
    setGame(null);
    setError(null);
    load(abort.signal).catch((e: unknown) => {
      if (abort.signal.aborted) return;
      const missing = e instanceof ApiError && (e.status === 404 || e.status === 400);
      setError({ missing, message: (e as Error).message });
    });
    return () => abort.abort();
  }, [load, sessionKnown]);

  // Signing in on a "not found" page may reveal a preview: the developer's or a tester's game.
  const viewer = session.state.status === 'signed-in' ? session.state.player.playerId : null;
  const missing = error?.missing === true;
  useEffect(() => {
    if (viewer === null || !missing) return;
    const abort = new AbortController();
    load(abort.signal)
      .then(() => setError(null))
      .catch(() => undefined);
    return () => abort.abort();
  }, [viewer, missing, load]);

  useEffect(() => {
    if (game) document.title = `${game.name} · coinop arcade`;
    return () => {
      document.title = 'coinop arcade';
    };
  }, [game]);

  return { game, error, setError, load, viewer, tierId, setTierId };
}
