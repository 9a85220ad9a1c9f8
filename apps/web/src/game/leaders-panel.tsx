import type { Game } from '@coinop/protocol';
import { Avatar } from '../components/avatar.js';
import { scoreText } from '../components/score.js';
import { Link } from '../router.js';
import { ReportButton } from '../reviews/report-button.js';
import { PlayerLink } from '../profiles/player-link.js';
import { useLiveBoards } from '../live/live.js';

/**
 * The chosen tier's current leaders beside the game, the player's own row marked; they move as
 * scores land, from the tab's live stream.
 */
export function LeadersPanel({
  game,
  tier,
  playerId,
}: {
  game: Game;
  tier: Game['leaderboards'][number];
  playerId: string | null;
}) {
  const leaders = useLiveBoards(game.id).get(tier.id) ?? tier.leaders;
  return (
    <section aria-labelledby="leaders-heading" className="leaders panel">
      <h2 id="leaders-heading">Leaders: {tier.name}</h2>
      {leaders.length === 0 ? (
        <p className="empty-board">No scores yet</p>
      ) : (
        <ol>
          {leaders.map((leader) => (
            <li key={leader.playerId} className={leader.playerId === playerId ? 'me' : undefined}>
              <Avatar src={leader.avatar} playerId={leader.playerId} size={24} />
              <span className="leader-name">
                <PlayerLink playerId={leader.playerId} name={leader.name} />
              </span>
              <span className="leader-score">{scoreText(leader.score, game.scoreUnit)}</span>
              <ReportButton leaderboardId={tier.id} player={leader} />
            </li>
          ))}
        </ol>
      )}
      <p className="leaders-more">
        <Link href={`/games/${encodeURIComponent(game.id)}/boards/${encodeURIComponent(tier.id)}`}>
          Full leaderboard
        </Link>
      </p>
    </section>
  );
}
