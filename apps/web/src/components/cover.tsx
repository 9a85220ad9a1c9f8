/** A game's 16:9 cover, or its initial on a plain tile when it has none. Decorative: the name is
 * always shown beside it. */
export function Cover({ url, name }: { url: string; name: string }) {
  if (url === '') {
    return (
      <div className="cover cover-empty" aria-hidden="true">
        {name.slice(0, 1).toUpperCase()}
      </div>
    );
  }
  return <img className="cover" src={url} alt="" loading="lazy" width={1920} height={1080} />;
}
