import type { Game } from '@coinop/protocol';
import { Cover } from '../components/cover.js';
import { Link } from '../router.js';

/** The game's cover, name, tag line and facts (its category, which way scores win). */
export function GameHeader({ game }: { game: Game }) {
  const lowerWins = game.scoreDisplay === 'REVERSE';
  return (
    <header className="game-title">
      <div className="cover-frame">
        <Cover url={game.coverUrl} name={game.name} />
      </div>
      <div>
        <h1>{game.name}</h1>
        {game.tagLine !== '' && <p className="tag-line">{game.tagLine}</p>}
        <ul className="game-facts" aria-label="About this game">
          {game.category !== '' && <li className="chip">{game.category}</li>}
          <li className="chip">{lowerWins ? 'Lowest score wins' : 'Highest score wins'}</li>
        </ul>
        {game.published && (
          <p className="developer-link">
            <Link href={`/developers/${encodeURIComponent(game.playerId)}`}>
              More games from this developer
            </Link>
          </p>
        )}
      </div>
    </header>
  );
}
