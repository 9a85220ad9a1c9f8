import type { Game } from '@coinop/protocol';
import { getGame } from '../api.js';
import type { Session } from '../session/session.js';

/**
 * A game's page data. A signed-in viewer reads `GET /api/player/games/{id}`, which answers a
 * published game as the catalog does and a preview to the game's developer and testers, so a
 * preview costs no failed catalog request first; anyone else reads the public catalog (404 for a
 * game it does not list).
 */
export async function loadGameOrPreview(
  gameId: string,
  session: Session,
  signal?: AbortSignal,
): Promise<Game> {
  if (session.state.status === 'signed-in') {
    return session.call<Game>(`/player/games/${encodeURIComponent(gameId)}`);
  }
  return getGame(gameId, signal);
}
