import './notifications.css';
import { useId, useRef } from 'react';
import type { PlayerNotification } from '@coinop/protocol';
import { useSession } from '../session/session.js';
import { Link } from '../router.js';
import { useNotifications } from './live.js';
import { notificationText } from './notification-text.js';

/**
 * The header's bell: how many notifications arrived since the menu was last opened, and the
 * recent ones (payouts with the play that caused them, round results, deposits). Opening it marks
 * them read. A native popover, like the account menu: Escape or a click outside closes it.
 */
export function NotificationsMenu() {
  const session = useSession();
  const { notifications, unread, markRead } = useNotifications();
  const menu = useRef<HTMLDivElement>(null);
  const menuId = useId();
  if (session.state.status !== 'signed-in') return null;

  const label = unread === 0 ? 'Notifications' : `Notifications: ${unread} new`;
  return (
    <div className="notifications">
      <button
        type="button"
        className="bell"
        popoverTarget={menuId}
        aria-label={label}
        data-testid="notifications-bell"
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path
            d="M12 3a6 6 0 0 0-6 6v3.6L4.3 16h15.4L18 12.6V9a6 6 0 0 0-6-6Zm-2.2 15a2.3 2.3 0 0 0 4.4 0"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.8"
            strokeLinejoin="round"
          />
        </svg>
        {unread > 0 && (
          <span className="count-badge" data-testid="notifications-unread" aria-hidden="true">
            {unread}
          </span>
        )}
      </button>
      <div
        id={menuId}
        ref={menu}
        popover="auto"
        className="notifications-menu"
        onToggle={(e) => {
          if ((e.nativeEvent as ToggleEvent).newState === 'open') markRead();
        }}
      >
        <h2>Notifications</h2>
        {notifications.length === 0 ? (
          <p className="muted">
            Nothing yet. When someone plays on a board you lead, you are paid, and it shows here.
          </p>
        ) : (
          <ul data-testid="notifications-list">
            {notifications.map((n) => (
              <NotificationItem key={n.id} n={n} close={() => menu.current?.hidePopover()} />
            ))}
          </ul>
        )}
        <p className="notifications-more">
          <Link href="/account" onClick={() => menu.current?.hidePopover()}>
            All activity
          </Link>
        </p>
      </div>
    </div>
  );
}

function NotificationItem({ n, close }: { n: PlayerNotification; close: () => void }) {
  const when = new Date(n.at);
  const text = notificationText(n);
  // A publish decision is the developer's business: it opens the game in the portal.
  const publishing = n.kind === 'publish_approved' || n.kind === 'publish_declined';
  const page = publishing ? '/developer/games/' : '/games/';
  return (
    <li className={`notification ${n.kind}`}>
      {n.gameId !== null ? (
        <Link href={`${page}${encodeURIComponent(n.gameId)}`} onClick={close}>
          {text}
        </Link>
      ) : (
        <span>{text}</span>
      )}
      <time dateTime={n.at}>{when.toLocaleString()}</time>
    </li>
  );
}
