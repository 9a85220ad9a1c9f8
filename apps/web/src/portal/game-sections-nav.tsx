import { Link } from '../router.js';
import { GAME_SECTIONS, gameSectionHref, type GameSectionPath } from './game-sections.js';
import './game-sections.css';

/**
 * The game's views as a strip of links, the current one `aria-current="page"` (`"true"` on a
 * page under it, as the integration code under Integration). On a phone the strip wraps onto
 * more lines, as the console's does, so every view stays in sight and nothing scrolls sideways.
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
  return (
    <nav className="game-sections" aria-label="Game sections">
      <ul>
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
