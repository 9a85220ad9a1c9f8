import type { CSSProperties, RefObject } from 'react';
import type { ScoreOutcome } from '../bridge/arcade-host.js';
import type { GameNotice } from './use-game-notice.js';

/** The page's message to the player, in a burst of coins when their score made the board. */
export function GameNoticeLine({
  notice,
  celebration,
  noticeRef,
}: {
  notice: GameNotice | null;
  celebration: ScoreOutcome | null;
  noticeRef: RefObject<HTMLParagraphElement | null>;
}) {
  return (
    <div className={celebration ? 'celebration' : undefined}>
      {celebration && (
        <strong aria-hidden="true">
          {celebration.leaderRank === 1 ? 'Top of the board!' : 'You made the board!'}
        </strong>
      )}
      <p
        className={notice?.tone === 'error' ? 'notice error' : 'notice'}
        role="status"
        aria-live="polite"
        data-testid="arcade-notice"
        ref={noticeRef}
      >
        {notice?.text}
      </p>
      {celebration && (
        <div className="burst" aria-hidden="true">
          {BURST_COINS.map(([x, y, delay], i) => (
            <i
              key={`${celebration.score}-${i}`}
              style={
                {
                  '--x': `${x}rem`,
                  '--y': `${y}rem`,
                  '--delay': `${delay}ms`,
                } as CSSProperties
              }
            />
          ))}
        </div>
      )}
    </div>
  );
}

/** The celebration's coins: where each flies to (rem from the banner's centre) and its delay (ms). */
const BURST_COINS: readonly (readonly [x: number, y: number, delay: number])[] = [
  [-9, -3, 0],
  [-6, -4.5, 40],
  [-3, -5, 80],
  [0, -5.5, 20],
  [3, -5, 60],
  [6, -4.5, 100],
  [9, -3, 30],
  [-7, 1, 70],
  [7, 1, 50],
];
