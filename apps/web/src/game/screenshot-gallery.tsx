import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import type { GameScreenshot } from '@coinop/protocol';
import { listScreenshots } from '../api.js';

/**
 * A game's screenshots (issue 31): the chosen one large with its description, the others as
 * buttons below it. Arrow keys, Home and End move along the buttons and show what they reach.
 */
export function ScreenshotGallery({ gameId, gameName }: { gameId: string; gameName: string }) {
  const [shots, setShots] = useState<readonly GameScreenshot[]>([]);
  const [shown, setShown] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    const abort = new AbortController();
    // No gallery is no loss: a failed read leaves the page as it was.
    listScreenshots(gameId, abort.signal).then(setShots, () => undefined);
    return () => abort.abort();
  }, [gameId]);

  const current = shots[shown] ?? shots[0];
  if (current === undefined) return null;

  const show = (index: number) => {
    const next = (index + shots.length) % shots.length;
    setShown(next);
    buttons.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const moves: Record<string, number> = {
      ArrowRight: shown + 1,
      ArrowLeft: shown - 1,
      Home: 0,
      End: shots.length - 1,
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(to);
  };

  return (
    <section className="gallery" aria-labelledby="gallery-heading">
      <h2 id="gallery-heading">Screenshots</h2>
      <figure className="gallery-main">
        <img src={current.url} alt={current.alt} width={current.width} height={current.height} />
      </figure>
      {shots.length > 1 && (
        <ul
          className="gallery-thumbs"
          aria-label={`Screenshots of ${gameName}`}
          onKeyDown={onKeyDown}
        >
          {shots.map((shot, i) => (
            <li key={shot.id}>
              <button
                type="button"
                ref={(el) => {
                  buttons.current[i] = el;
                }}
                aria-current={i === shown ? 'true' : undefined}
                aria-label={`Screenshot ${i + 1} of ${shots.length}: ${shot.alt}`}
                onClick={() => setShown(i)}
              >
                <img src={shot.url} alt="" loading="lazy" />
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
