import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { BoardAround, BoardEntry, BoardPage as BoardPageWire, Game } from '@coinop/protocol';
import { ApiError, getGame, requestJson } from '../api.js';
import { Avatar } from '../components/avatar.js';
import { ErrorAlert, errorText } from '../portal/parts.js';
import { useTitle } from '../components/page-title.js';
import { Link } from '../router.js';
import { scoreText } from '../components/score.js';
import { useSession } from '../session/session.js';
import { ReportButton } from '../reviews/report-button.js';
import './boards.css';
import { PlayerLink } from '../profiles/player-link.js';

const PAGE_SIZE = 20;
const AROUND = 3;

function BoardRows({
  entries,
  me,
  unit,
  leaderboardId,
}: {
  entries: readonly BoardEntry[];
  me: string | null;
  unit: string;
  leaderboardId: string | undefined;
}) {
  return (
    <>
      {entries.map((e) => (
        <tr key={e.playerId} aria-current={e.playerId === me ? 'true' : undefined}>
          <td className="board-rank">#{e.rank}</td>
          <td>
            <span className="board-player">
              <Avatar src={e.avatar} playerId={e.playerId} size={24} />
              <span>
                <PlayerLink playerId={e.playerId} name={e.name} />
                {e.playerId === me && <strong className="board-you"> (you)</strong>}
              </span>
            </span>
          </td>
          <td className="board-score">{scoreText(e.score, unit)}</td>
          {leaderboardId !== undefined && me !== null && (
            <td className="board-report">
              <ReportButton leaderboardId={leaderboardId} player={e} />
            </td>
          )}
        </tr>
      ))}
    </>
  );
}

function BoardTable({
  caption,
  entries,
  me,
  unit,
  leaderboardId,
}: {
  caption: string;
  entries: readonly BoardEntry[];
  me: string | null;
  unit: string;
  /** The tier, when rows may be reported (a signed-in player, another player's row). */
  leaderboardId?: string | undefined;
}) {
  return (
    <table className="board-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Rank</th>
          <th scope="col">Player</th>
          <th scope="col" className="board-score">
            Best score
          </th>
          {leaderboardId !== undefined && me !== null && (
            <th scope="col">
              <span className="visually-hidden">Report</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        <BoardRows entries={entries} me={me} unit={unit} leaderboardId={leaderboardId} />
      </tbody>
    </table>
  );
}

/**
 * `/games/:gameId/boards/:leaderboardId`: one tier's whole board with exact ranks, twenty at a
 * time ("Load more" follows the API's cursor), and "Around me" for the signed-in player.
 */
export function BoardPage({ gameId, leaderboardId }: { gameId: string; leaderboardId: string }) {
  const [game, setGame] = useState<Game | null>(null);
  const [error, setError] = useState<string | null>(null);
  const tier = game?.leaderboards.find((b) => b.id === leaderboardId);
  useTitle(tier && game ? `${game.name}: ${tier.name} leaderboard` : 'Leaderboard');
  useEffect(() => {
    const controller = new AbortController();
    getGame(gameId, controller.signal).then(setGame, (e: unknown) => {
      if (!controller.signal.aborted) setError(`Could not load the game: ${errorText(e)}`);
    });
    return () => controller.abort();
  }, [gameId]);

  return (
    <section className="page board-page">
      <p className="board-back">
        <Link href={`/games/${encodeURIComponent(gameId)}`}>
          ← {game ? `Back to ${game.name}` : 'Back to the game'}
        </Link>
      </p>
      <h1>
        {game?.name ?? 'Leaderboard'}
        {tier && <span className="board-tier">{tier.name} leaderboard</span>}
      </h1>
      <ErrorAlert error={error} />
      <BoardStandings
        base={`/api/catalog/games/${encodeURIComponent(gameId)}/boards/${encodeURIComponent(leaderboardId)}`}
        unit={game?.scoreUnit ?? ''}
        noun="tier"
        leaderboardId={leaderboardId}
      />
    </section>
  );
}

/**
 * A board's standings: how many players, "Around me" for the signed-in player, and the whole
 * board twenty at a time. `base` is the board's catalog route (a tier's, or a tournament round's:
 * a round's id is its leaderboardId); `noun` names the board in its messages ("tier", "round").
 * `onPlayers` hears how many players have a score, at each page read.
 */
export function BoardStandings({
  base,
  unit,
  noun,
  headingLevel = 2,
  onPlayers,
  leaderboardId,
  version = 0,
}: {
  base: string;
  unit: string;
  noun: string;
  headingLevel?: 2 | 3;
  onPlayers?: (players: number) => void;
  /** The board's id, when its rows may be reported (docs/reference/review-queue.md). */
  leaderboardId?: string;
  /** Changes when the board did (a live update): its first page is read again. */
  version?: number;
}) {
  const { state } = useSession();
  const me = state.status === 'signed-in' ? state.player.playerId : null;
  const { entries, players, cursor, loading, error, setError, load } = useBoardPages(
    base,
    onPlayers,
  );
  const [around, setAround] = useState<BoardAround | null>(null);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const ids = useId();

  useEffect(() => {
    setAround(null);
    void load(null);
  }, [load, version]);

  const showAroundMe = async () => {
    if (me === null) return;
    setError(null);
    try {
      setAround(await requestJson<BoardAround>(`${base}/players/${me}?count=${AROUND}`));
    } catch (e) {
      setError(`Could not find your place: ${errorText(e)}`);
    }
  };

  return (
    <>
      {players !== null && (
        <p className="board-count">
          {players === 0
            ? `Nobody has a score on this ${noun} yet.`
            : `${players} ${players === 1 ? 'player' : 'players'}, best score first. Equal scores rank by who reached them first.`}
        </p>
      )}
      {me !== null && players !== null && players > 0 && (
        <AroundMe
          id={`${ids}-around`}
          Heading={Heading}
          around={around}
          noun={noun}
          me={me}
          unit={unit}
          onShow={() => void showAroundMe()}
        />
      )}
      {entries.length > 0 && (
        <section aria-labelledby={`${ids}-board`}>
          <Heading id={`${ids}-board`}>All players</Heading>
          <BoardTable
            caption="The leaderboard"
            entries={entries}
            me={me}
            unit={unit}
            leaderboardId={leaderboardId}
          />
        </section>
      )}
      <ErrorAlert error={error} />
      {loading && <p role="status">Loading the leaderboard…</p>}
      {!loading && cursor !== null && (
        <button type="button" className="board-more" onClick={() => void load(cursor)}>
          Load more
        </button>
      )}
    </>
  );
}

/** "Around me": the signed-in player's place and the players around, asked for by a button. */
function AroundMe({
  id,
  Heading,
  around,
  noun,
  me,
  unit,
  onShow,
}: {
  id: string;
  Heading: 'h2' | 'h3';
  around: BoardAround | null;
  noun: string;
  me: string;
  unit: string;
  onShow: () => void;
}) {
  return (
    <section className="board-around" aria-labelledby={id}>
      <Heading id={id}>Around me</Heading>
      {around === null ? (
        <button type="button" onClick={onShow}>
          Show my place
        </button>
      ) : around.player === null ? (
        <p>You have no score on this {noun} yet. Play it to join the board.</p>
      ) : (
        <>
          <p role="status">
            You rank #{around.player.rank} of {around.players}.
          </p>
          <BoardTable
            caption="Your place and the players around you"
            entries={[...around.above, around.player, ...around.below]}
            me={me}
            unit={unit}
          />
          <button type="button" onClick={onShow}>
            Refresh my place
          </button>
        </>
      )}
    </section>
  );
}

/**
 * A board read a page at a time, from the top: `load(null)` starts again, `load(cursor)` appends
 * the next page; `onPlayers` hears how many players have a score at each read.
 */
function useBoardPages(base: string, onPlayers: ((players: number) => void) | undefined) {
  const [entries, setEntries] = useState<readonly BoardEntry[]>([]);
  const [players, setPlayers] = useState<number | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const heardPlayers = useRef(onPlayers);
  heardPlayers.current = onPlayers;

  const load = useCallback(
    async (after: string | null) => {
      setLoading(true);
      setError(null);
      try {
        const pageAfter = (cursor: string | null) =>
          requestJson<BoardPageWire>(
            `${base}?limit=${PAGE_SIZE}${cursor === null ? '' : `&cursor=${cursor}`}`,
          );
        let from = after;
        let page: BoardPageWire;
        try {
          page = await pageAfter(from);
        } catch (e) {
          // A walk of the board lasts ten minutes (docs/reference/boards-and-history.md): the
          // list starts again from the top rather than failing.
          if (from === null || !(e instanceof ApiError && e.code === 'cursor_expired')) throw e;
          from = null;
          page = await pageAfter(null);
        }
        setEntries((shown) => (from === null ? page.entries : [...shown, ...page.entries]));
        setPlayers(page.players);
        heardPlayers.current?.(page.players);
        setCursor(page.nextCursor);
      } catch (e) {
        setError(`Could not load the leaderboard: ${errorText(e)}`);
      } finally {
        setLoading(false);
      }
    },
    [base],
  );

  return { entries, players, cursor, loading, error, setError, load };
}
