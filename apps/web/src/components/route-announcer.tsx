import { useEffect, useRef, useState } from 'react';

/** How long the title must stay unchanged after a navigation before it is read out. */
const SETTLE_MS = 250;

/**
 * Says the new page's name to screen readers after each in-app navigation, as a page load would:
 * moving between views (the portal's sections, the console's screens) changes the page without
 * loading one, and focus stays on the link that was followed. It reads the document's title
 * once it has settled (pages set it when their data arrives) and says it again if the page
 * renames itself later. Nothing is said on the first load: the browser announces that page.
 */
export function RouteAnnouncer({ path, suffix }: { path: string; suffix: string }) {
  const [text, setText] = useState('');
  const firstPath = useRef(path);
  useEffect(() => {
    if (path === firstPath.current) return;
    firstPath.current = '';
    const announce = () => setText(document.title.replace(suffix, ''));
    let timer = setTimeout(announce, SETTLE_MS);
    const observer = new MutationObserver(() => {
      clearTimeout(timer);
      timer = setTimeout(announce, SETTLE_MS);
    });
    const title = document.querySelector('title');
    if (title) observer.observe(title, { childList: true, characterData: true, subtree: true });
    return () => {
      clearTimeout(timer);
      observer.disconnect();
    };
  }, [path, suffix]);
  return (
    <p className="visually-hidden" role="status" aria-live="polite" data-testid="route-announcer">
      {text}
    </p>
  );
}
