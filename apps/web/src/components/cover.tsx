import { useEffect, useState } from 'react';

/**
 * A game's 16:9 cover. A game without one, or whose image fails to load, gets a designed tile
 * with its initial instead of a broken-image icon. Decorative: the name is always shown beside it.
 */
export function Cover({ url, name }: { url: string; name: string }) {
  const [failed, setFailed] = useState(false);
  useEffect(() => setFailed(false), [url]);
  if (url === '' || failed) {
    return (
      <div className={`cover cover-empty tone-${toneOf(name)}`} aria-hidden="true">
        {name.trim().slice(0, 1).toUpperCase()}
      </div>
    );
  }
  return (
    <img
      className="cover"
      src={url}
      alt=""
      loading="lazy"
      width={1920}
      height={1080}
      onError={() => setFailed(true)}
    />
  );
}

/** One of four tile colourings, the same for a game every time. */
function toneOf(name: string): number {
  let sum = 0;
  for (const char of name) sum += char.codePointAt(0) ?? 0;
  return sum % 4;
}
