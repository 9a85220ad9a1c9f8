import { useEffect, useState } from 'react';

/**
 * A player's avatar. Avatars live wherever the player's profile points, so one can fail to
 * load: a round placeholder of the same size stands in, instead of a broken-image icon.
 */
export function Avatar({ src, size }: { src: string; size: 24 | 32 }) {
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [src]);
  if (failed) return <span className={`avatar avatar-${size} avatar-missing`} aria-hidden="true" />;
  return (
    <img
      className={`avatar avatar-${size}`}
      src={src}
      alt=""
      width={size}
      height={size}
      onError={() => setFailed(true)}
    />
  );
}
