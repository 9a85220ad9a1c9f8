import type { Game } from '@coinop/protocol';
import { ApiError, getGame } from '../api.js';
import type { Session } from '../session/session.js';

/**
 * A game's page data: the public catalog's, or — when the catalog does not list it and a wallet
 * is signed in — the preview the API gives the game's developer and testers
 * (`GET /api/player/games/{id}`). Anyone else gets the catalog's 404.
 */
export async function loadGameOrPreview(
  gameId: string,
  session: Session,
  signal?: AbortSignal,
): Promise<Game> {
  try {
    return await getGame(gameId, signal);
  } catch (error) {
    const missing = error instanceof ApiError && error.status === 404;
    if (!missing || session.state.status !== 'signed-in') throw error;
    return session.call<Game>(`/player/games/${encodeURIComponent(gameId)}`);
  }
}
