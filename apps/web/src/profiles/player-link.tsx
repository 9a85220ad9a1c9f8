import { Link } from '../router.js';
import './profiles.css';

/** A player's name wherever a player appears, linking to their public page (`/players/{id}`). */
export function PlayerLink({ playerId, name }: { playerId: string; name: string }) {
  return (
    <Link className="player-link" href={`/players/${encodeURIComponent(playerId)}`}>
      {name}
    </Link>
  );
}
