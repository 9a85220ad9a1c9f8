import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import { UNSCORED_PLAY_SETTLES, playEndsText } from '../components/play-ends.js';
import type { PlayLine } from './use-left-open-plays.js';

/**
 * The player's paid plays on this game left open (a reload, Back, a closed tab): which tier, what
 * it cost, when it ends and what happens then. The bridge has no way to hand a play back to a
 * game (docs/reference/bridge-protocol.md), so it promises nothing of the kind.
 */
export function OpenPlayNotice({ plays }: { plays: readonly PlayLine[] }) {
  if (plays.length === 0) return null;
  return (
    <div className="notice-card open-play-notice" data-testid="open-play-notice" role="note">
      {plays.map((play) => (
        <p key={play.id}>
          <strong>
            You have an open play on {play.tierName}, which cost{' '}
            {formatHstUnits(hstUnits(play.cost))}.
          </strong>{' '}
          It ends at <time dateTime={play.expiresAt}>{playEndsText(play.expiresAt)}</time>.{' '}
          {UNSCORED_PLAY_SETTLES}
        </p>
      ))}
      <p>
        The arcade cannot hand a play back to a game once its page was left or reloaded: unless the
        game itself continues it, pressing Play starts a new play, paid again.
      </p>
    </div>
  );
}
