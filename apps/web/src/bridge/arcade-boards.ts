import type {
  BoardAround,
  BoardPage,
  ReceiveBoardAroundMessage,
  ReceiveBoardPageMessage,
  SendBoardAroundMessage,
  SendBoardPageMessage,
} from '@coinop/protocol';
import { requestJson } from '../api.js';
import type { ArcadeHost } from './arcade-host.js';

// Board reads (issue 18) come from the public board routes: a game reads what anyone may,
// of its own game only, whoever asks; around-me is the signed-in player's place.

/** A page of a tier's board (bridge `boardPage`). */
export async function readBoardPage(
  host: ArcadeHost,
  request: SendBoardPageMessage,
): Promise<ReceiveBoardPageMessage> {
  const { board } = boardOf(host, request.leaderboardId);
  const query = new URLSearchParams({ limit: String(request.limit ?? 25) });
  if (request.cursor !== undefined) query.set('cursor', request.cursor);
  const page = await requestJson<BoardPage>(`${board}?${query}`);
  host.boardRead();
  return page;
}

/** The signed-in player's place on a tier's board and the players around (`boardAround`). */
export async function readBoardAround(
  host: ArcadeHost,
  request: SendBoardAroundMessage,
): Promise<ReceiveBoardAroundMessage> {
  const { board, tierId } = boardOf(host, request.leaderboardId);
  const player = host.player();
  if (player === null) {
    const { players } = await requestJson<BoardPage>(`${board}?limit=1`);
    return { leaderboardId: tierId, players, above: [], player: null, below: [] };
  }
  const count = String(request.count ?? 5);
  const around = await requestJson<BoardAround>(
    `${board}/players/${encodeURIComponent(player.id)}?count=${count}`,
  );
  host.boardRead();
  return around;
}

/** The public route of the hosted game's board `leaderboardId`, or of the tier chosen now. */
function boardOf(host: ArcadeHost, leaderboardId: string | undefined) {
  const tierId = leaderboardId ?? host.tier()?.id;
  if (tierId === undefined) throw new Error('the game has no tier to read');
  const gameId = encodeURIComponent(host.game().id);
  return { tierId, board: `/api/catalog/games/${gameId}/boards/${encodeURIComponent(tierId)}` };
}
