import { useCallback, useEffect, useState } from 'react';
import type { AdminGame, Tournament } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { errorText } from './parts.js';

/** At most this many games are offered by the create form's picker (pages of 100). */
const PICKER_PAGES = 10;

/** Every tournament, read again on `reload`; `stop` asks, stops one and says how it went. */
export function useAdminTournaments(api: AdminApi) {
  const [tournaments, setTournaments] = useState<readonly Tournament[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);
  const [busy, setBusy] = useState(false);

  const reload = useCallback(async () => {
    try {
      setTournaments(await api.tournaments());
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, [api]);
  useEffect(() => {
    void reload();
  }, [reload]);

  const stop = async (t: Tournament) => {
    const confirmed = window.confirm(
      `Stop ${t.name} (${t.gameName})? No round after the current one will open. The current ` +
        'round still runs to its end, closes and pays its pool as usual. This cannot be undone.',
    );
    if (!confirmed) return;
    setBusy(true);
    setOutcome(null);
    try {
      await api.stopTournament(t.id);
      setOutcome({
        text: `${t.name}: stopped. Its current round still closes and pays; none follows.`,
        tone: 'ok',
      });
    } catch (e) {
      setOutcome({ text: `Could not stop ${t.name}: ${errorText(e)}`, tone: 'error' });
    } finally {
      setBusy(false);
    }
    await reload();
  };

  return { tournaments, error, outcome, busy, reload, stop };
}

/** The games the create form's picker offers (those read before a failure, if one). */
export function usePickerGames(api: AdminApi) {
  const [games, setGames] = useState<readonly AdminGame[] | null>(null);
  const [gamesError, setGamesError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      const all: AdminGame[] = [];
      let before: string | null = null;
      try {
        for (let page = 0; page < PICKER_PAGES; page += 1) {
          const read: { items: readonly AdminGame[]; next: string | null } = await api.games(
            before,
            100,
          );
          all.push(...read.items);
          before = read.next;
          if (before === null) break;
        }
      } catch (e) {
        // The picker offers the games read before the failure, if any.
        if (live) setGamesError(errorText(e));
      }
      if (live) setGames(all);
    })();
    return () => {
      live = false;
    };
  }, [api]);
  return { games, gamesError };
}
