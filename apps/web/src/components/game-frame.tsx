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

export function GameFrame({ url, title }: { url: string; title: string }) {
  const sandbox = frameSandbox(url, window.location.origin);
  return (
    <iframe
      className="game-frame"
      src={url}
      title={title}
      sandbox={sandbox}
      referrerPolicy="origin"
      allow=""
    />
  );
}
