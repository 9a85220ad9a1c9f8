import { useLayoutEffect, useRef } from 'react';
import { Link } from '../router.js';
import { GAME_SECTIONS, gameSectionHref, type GameSectionPath } from './game-sections.js';
import './game-sections.css';

/**
 * The game's views as a strip of links, the current one `aria-current="page"` (`"true"` on a
 * page under it, as the integration code under Integration). On a phone the strip scrolls
 * sideways inside itself, and the current link is scrolled into it, so the page never does.
 */
export function GameSectionsNav({
  gameId,
  current,
  under = false,
}: {
  gameId: string;
  current: GameSectionPath;
  under?: boolean;
}) {
  const strip = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    const list = strip.current;
    const active = list?.querySelector<HTMLElement>('[aria-current]');
    if (!list || !active) return;
    // Only the strip scrolls: scrollIntoView could move the page too.
    const left = active.offsetLeft - list.offsetLeft;
    if (left < list.scrollLeft || left + active.offsetWidth > list.scrollLeft + list.clientWidth) {
      list.scrollLeft = left - (list.clientWidth - active.offsetWidth) / 2;
    }
  }, [current]);
  return (
    <nav className="game-sections" aria-label="Game sections">
      <ul ref={strip}>
        {GAME_SECTIONS.map((section) => (
          <li key={section.path}>
            <Link
              href={gameSectionHref(gameId, section.path)}
              aria-current={section.path !== current ? undefined : under ? 'true' : 'page'}
            >
              {section.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
