import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import {
  UNSCORED_COST_GOES,
  UNSCORED_PLAY_SETTLES,
  playEndsText,
} from '../components/play-ends.js';
import type { PlayLine } from './use-left-open-plays.js';

/**
 * The player's paid plays on this game left open (a reload, Back, a closed tab): which tier, what
 * it cost, when it ends and what happens then. The bridge has no way to hand a play back to a
 * game (docs/reference/bridge-protocol.md), so it promises nothing of the kind.
 */
export function OpenPlayNotice({ plays }: { plays: readonly PlayLine[] }) {
  const [only, second] = plays;
  if (only === undefined) return null;
  return (
    <div className="notice-card open-play-notice" data-testid="open-play-notice" role="note">
      {second === undefined ? <OnePlay play={only} /> : <SeveralPlays plays={plays} />}
      <p>
        The arcade cannot hand a play back to a game once its page was left or reloaded: unless the
        game itself continues it, pressing Play starts a new play, paid again.
      </p>
    </div>
  );
}

function OnePlay({ play }: { play: PlayLine }) {
  return (
    <p>
      <strong>
        You have an open play on {play.tierName}, which cost {formatHstUnits(hstUnits(play.cost))}.
      </strong>{' '}
      It ends at <Ends play={play} />. {UNSCORED_PLAY_SETTLES}
    </p>
  );
}

/** Several plays (a game's server may open many): one line each, what they become said once. */
function SeveralPlays({ plays }: { plays: readonly PlayLine[] }) {
  return (
    <>
      <p>
        <strong>You have {plays.length} open plays on this game:</strong>
      </p>
      <ul>
        {plays.map((play) => (
          <li key={play.id}>
            {play.tierName}, {formatHstUnits(hstUnits(play.cost))}, ends at <Ends play={play} />
          </li>
        ))}
      </ul>
      <p>If one has no score by then, it ends without one: {UNSCORED_COST_GOES}</p>
    </>
  );
}

function Ends({ play }: { play: PlayLine }) {
  return <time dateTime={play.expiresAt}>{playEndsText(play.expiresAt)}</time>;
}
