import { useEffect, useRef } from 'react';
import type { Game } from '@coinop/protocol';
import type { OpenRound } from '../tournaments/game-tournaments.js';

/**
 * Keeps the chosen tier in step with the game's open tournament rounds: `?tournament=<id>` (the
 * tournament page's Play) chooses that tournament's open round, and a chosen round that closed
 * goes back to the first tier.
 */
export function useRoundChoice(
  game: Game | null,
  tierId: string,
  setTierId: (id: string) => void,
  open: readonly OpenRound[],
): void {
  const wantedTournament = useRef(new URLSearchParams(window.location.search).get('tournament'));
  useEffect(() => {
    const wanted = open.find((o) => o.tournament.id === wantedTournament.current);
    if (wanted === undefined) return;
    wantedTournament.current = null;
    setTierId(wanted.round.id);
  }, [open, setTierId]);
  // A chosen round that closed goes back to the first tier.
  useEffect(() => {
    if (game === null || tierId === '' || game.leaderboards.some((b) => b.id === tierId)) return;
    if (open.some((o) => o.round.id === tierId)) return;
    setTierId(game.leaderboards[0]?.id ?? '');
  }, [game, tierId, open, setTierId]);
}
