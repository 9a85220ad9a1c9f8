import type { CatalogGame } from '@coinop/protocol';
import { Cover } from './cover.js';
import { Hst } from './hst.js';
import { Link } from '../router.js';

/** A game's card: cover, name (its page's link), tag line, category and cheapest play. */
export function GameCard({ game }: { game: CatalogGame }) {
  return (
    <li className="game-card">
      <div className="cover-frame">
        <Cover url={game.coverUrl} name={game.name} />
      </div>
      <div className="game-card-body">
        <h2>
          <Link href={`/games/${game.id}`}>{game.name}</Link>
        </h2>
        {game.tagLine !== '' && <p className="tag-line">{game.tagLine}</p>}
        <div className="card-foot">
          {game.category !== '' && <span className="category">{game.category}</span>}
          <CheapestPlay game={game} />
        </div>
        <WeekLine game={game} />
      </div>
    </li>
  );
}

/** What the cheapest tier costs a play, so a player knows the stakes before opening the game. */
function CheapestPlay({ game }: { game: CatalogGame }) {
  const cheapest = game.leaderboards.reduce<CatalogGame['leaderboards'][number] | null>(
    (best, tier) => (best === null || tier.cost < best.cost ? tier : best),
    null,
  );
  if (cheapest === null) return null;
  return (
    <span className="from">
      {game.leaderboards.length > 1 ? 'From ' : ''}
      <Hst hst={cheapest.cost} /> a play
    </span>
  );
}

/** The game's week, from the catalog (docs/concepts/discovery.md): plays begun and HST paid in. */
function WeekLine({ game }: { game: CatalogGame }) {
  const plays = game.playsThisWeek;
  return (
    <p className="week-line">
      <span>
        {plays === 0
          ? 'No plays'
          : `${plays.toLocaleString('en-US')} ${plays === 1 ? 'play' : 'plays'}`}{' '}
        this week
      </span>
      {BigInt(game.poolThisWeekUnits) > 0n && (
        <span>
          <Hst units={BigInt(game.poolThisWeekUnits)} /> paid in
        </span>
      )}
    </p>
  );
}
