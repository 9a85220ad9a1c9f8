import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import {
  LiveEvents,
  type Leader,
  type LiveBalance,
  type LiveBoard,
  type PlayerNotification,
  type PlayerNotificationList,
} from '@coinop/protocol';
import { useSession } from '../session/session.js';
import { useToast } from '../components/toasts.js';
import { openEventStream, type StreamEvent } from './event-stream.js';
import { isNewer, notificationText } from './notification-text.js';

/** How many notifications the menu keeps. */
const NOTIFICATIONS_KEPT = 20;

interface Live {
  /** The boards of the game watched now, as the stream last sent them, by tier id. */
  readonly boards: ReadonlyMap<string, readonly Leader[]>;
  readonly boardsGameId: string | null;
  /** Says which game's boards this tab follows (one game page at a time); null for none. */
  readonly watchGame: (gameId: string | null) => void;
  readonly notifications: readonly PlayerNotification[];
  readonly unread: number;
  readonly markRead: () => void;
}

/** Outside a provider (a page rendered alone): nothing live, nothing to read. */
const NOTHING_LIVE: Live = {
  boards: new Map(),
  boardsGameId: null,
  watchGame: () => undefined,
  notifications: [],
  unread: 0,
  markRead: () => undefined,
};

const LiveContext = createContext<Live>(NOTHING_LIVE);

const useLive = (): Live => useContext(LiveContext);

const NO_BOARDS: ReadonlyMap<string, readonly Leader[]> = new Map();

/**
 * The leaders of the game's boards (its tiers and its tournaments' open rounds) as they change
 * live, by board id; empty until the stream sends them, and for a game not known yet (null).
 */
export function useLiveBoards(gameId: string | null): ReadonlyMap<string, readonly Leader[]> {
  const { watchGame, boards, boardsGameId } = useLive();
  useEffect(() => {
    if (gameId === null) return;
    watchGame(gameId);
    return () => watchGame(null);
  }, [gameId, watchGame]);
  return gameId !== null && boardsGameId === gameId ? boards : NO_BOARDS;
}

/** The notifications menu's state: the recent ones, how many are unread, and marking them read. */
export function useNotifications(): Pick<Live, 'notifications' | 'unread' | 'markRead'> {
  const { notifications, unread, markRead } = useLive();
  return { notifications, unread, markRead };
}

const seenKey = (playerId: string) => `coinop.notifications.seen.${playerId}`;

/**
 * The tab's one live connection (docs/concepts/live-updates.md): signed in, the player's stream,
 * which carries the watched game's boards too; signed out, a game page's public board stream.
 * A balance that changed refreshes every view of money (`session.moved`); a notification joins
 * the menu and shows as a toast.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const session = useSession();
  const toast = useToast();
  const playerId = session.state.status === 'signed-in' ? session.state.player.playerId : null;
  const [gameId, setGameId] = useState<string | null>(null);
  const [boards, setBoards] = useState<{ gameId: string | null; map: Map<string, Leader[]> }>({
    gameId: null,
    map: new Map(),
  });
  const [notifications, setNotifications] = useState<PlayerNotification[]>([]);
  const [seen, setSeen] = useState<string | null>(null);
  const sessionNow = useRef(session);
  sessionNow.current = session;

  const onBoard = useCallback((board: LiveBoard) => {
    setBoards((current) => {
      const map = new Map(current.gameId === board.gameId ? current.map : []);
      map.set(board.leaderboardId, [...board.leaders]);
      return { gameId: board.gameId, map };
    });
  }, []);

  // The ids the menu has, so a notification sent again after a reconnect is neither listed nor
  // toasted twice.
  const known = useRef(new Set<string>());
  const addNotification = useCallback(
    (n: PlayerNotification) => {
      if (known.current.has(n.id)) return;
      known.current.add(n.id);
      setNotifications((list) =>
        [n, ...list].sort((a, b) => (isNewer(a.id, b.id) ? -1 : 1)).slice(0, NOTIFICATIONS_KEPT),
      );
      toast(notificationText(n), 'info');
    },
    [toast],
  );

  // The menu starts from the recent ones; what was read is remembered on this device.
  useEffect(() => {
    setNotifications([]);
    known.current = new Set();
    if (playerId === null) return;
    setSeen(localStorage.getItem(seenKey(playerId)));
    sessionNow.current
      .call<PlayerNotificationList>(`/player/notifications?limit=${NOTIFICATIONS_KEPT}`)
      .then((list) => {
        for (const n of list.notifications) known.current.add(n.id);
        setNotifications((live) => {
          const merged = [
            ...live,
            ...list.notifications.filter((n) => !live.some((m) => m.id === n.id)),
          ];
          return merged.sort((a, b) => (isNewer(a.id, b.id) ? -1 : 1)).slice(0, NOTIFICATIONS_KEPT);
        });
      })
      .catch(() => undefined);
  }, [playerId]);

  useEffect(() => {
    if (playerId === null) {
      if (gameId === null) return;
      const source = new EventSource(`/api/catalog/games/${encodeURIComponent(gameId)}/events`);
      source.addEventListener(LiveEvents.board, (e) => onBoard(JSON.parse(e.data) as LiveBoard));
      return () => source.close();
    }
    let firstBalance = true;
    const query = gameId === null ? '' : `?gameId=${encodeURIComponent(gameId)}`;
    return openEventStream({
      url: `/api/player/events${query}`,
      headers: async () => {
        const token = await sessionNow.current.freshToken();
        return token === null ? null : { authorization: `Bearer ${token}` };
      },
      onOpen: () => (firstBalance = true),
      onEvent: (event: StreamEvent) => {
        if (event.event === LiveEvents.board) onBoard(event.data as LiveBoard);
        else if (event.event === LiveEvents.notification) {
          addNotification(event.data as PlayerNotification);
        } else if (event.event === LiveEvents.balance) {
          const balance = event.data as LiveBalance;
          const state = sessionNow.current.state;
          const shown = state.status === 'signed-in' ? state.player.balance : null;
          // The first on each connection states the balance as it is: news only if it moved.
          if (!firstBalance || shown !== balance.balance) void sessionNow.current.moved();
          firstBalance = false;
        }
      },
    });
  }, [playerId, gameId, onBoard, addNotification]);

  const newest = notifications[0]?.id ?? null;
  const markRead = useCallback(() => {
    if (playerId === null || newest === null) return;
    localStorage.setItem(seenKey(playerId), newest);
    setSeen(newest);
  }, [playerId, newest]);

  const live: Live = {
    boards: boards.map,
    boardsGameId: boards.gameId,
    watchGame: setGameId,
    notifications,
    unread: notifications.filter((n) => isNewer(n.id, seen)).length,
    markRead,
  };
  return <LiveContext.Provider value={live}>{children}</LiveContext.Provider>;
}
