import type { CSSProperties } from 'react';

/**
 * The game in its iframe. Kept apart from the page so the host bridge (the client library's
 * postMessage protocol) can attach to this frame's window alone.
 *
 * Sandbox: a game on another origin gets `allow-scripts allow-same-origin`: it keeps its own
 * origin (its storage, its API calls, and the origin the bridge checks messages against), and the
 * browser's same-origin policy already keeps it out of the arcade page; everything else (popups,
 * forms, top navigation, downloads) stays off. A game on the arcade's own origin gets
 * `allow-scripts` only: with allow-same-origin too it could reach into the arcade page and remove
 * its own sandbox, so it runs in an opaque origin instead.
 */
export function frameSandbox(gameUrl: string, arcadeOrigin: string): string {
  return gameOrigin(gameUrl, arcadeOrigin) === arcadeOrigin
    ? 'allow-scripts'
    : 'allow-scripts allow-same-origin';
}

/** The origin a game URL resolves to; relative URLs belong to the arcade. */
export function gameOrigin(gameUrl: string, arcadeOrigin: string): string {
  return new URL(gameUrl, arcadeOrigin).origin;
}

/**
 * A declared "width:height" as the number CSS sizes the frame by, or null when there is none or
 * it is not one (the frame then keeps the arcade's default height).
 */
export function frameRatio(aspectRatio: string | undefined): number | null {
  const match = /^([1-9]\d{0,2}):([1-9]\d{0,2})$/.exec(aspectRatio ?? '');
  return match ? Number(match[1]) / Number(match[2]) : null;
}

export function GameFrame({
  url,
  title,
  aspectRatio,
}: {
  url: string;
  title: string;
  aspectRatio?: string | undefined;
}) {
  const sandbox = frameSandbox(url, window.location.origin);
  const ratio = frameRatio(aspectRatio);
  return (
    <iframe
      className={ratio === null ? 'game-frame' : 'game-frame fitted'}
      style={ratio === null ? undefined : ({ '--frame-ratio': ratio } as CSSProperties)}
      src={url}
      title={title}
      sandbox={sandbox}
      referrerPolicy="origin"
      allow=""
    />
  );
}
