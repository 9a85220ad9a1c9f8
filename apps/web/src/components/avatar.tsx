import { useEffect, useState } from 'react';

/**
 * A player's avatar. Avatars live wherever the player's profile points, so one can fail to
 * load: a round placeholder of the same size stands in, instead of a broken-image icon.
 */
export function Avatar({
  src,
  playerId,
  size,
}: {
  src: string;
  playerId: string;
  size: 24 | 32 | 96;
}) {
  const [failed, setFailed] = useState(false);
  const url = avatarSource(src, playerId);
  useEffect(() => setFailed(false), [url]);
  if (failed) return <span className={`avatar avatar-${size} avatar-missing`} aria-hidden="true" />;
  return (
    <img
      className={`avatar avatar-${size}`}
      src={url}
      alt=""
      width={size}
      height={size}
      onError={() => setFailed(true)}
    />
  );
}

/**
 * Where this page loads a player's avatar from. A generated or uploaded avatar's URL is the API's
 * public URL (`--public-url`), which the browser may not reach (a proxy in front of the web
 * listener only, a test's unused default port); the same image is loaded through this origin's
 * `/api` instead. Any other avatar is loaded where it points.
 */
export function avatarSource(src: string, playerId: string): string {
  const player = encodeURIComponent(playerId);
  const generated = `/avatars/${player}.svg`;
  const uploaded = `/catalog/players/${player}/avatar`;
  let url: URL;
  try {
    url = new URL(src, window.location.href);
  } catch {
    return src;
  }
  if (url.pathname.endsWith(uploaded))
    return `${window.location.origin}/api${uploaded}${url.search}`;
  if (!url.pathname.endsWith(generated) || url.search !== '') return src;
  return `${window.location.origin}/api${generated}`;
}
