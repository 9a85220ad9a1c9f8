import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** A few routes do not need a router library: the History API and one event. */

const NAVIGATE = 'coinop:navigate';

export function navigate(to: string): void {
  window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE));
}

/** The current path and query, updated on links, back and forward. */
export function useLocation(): { path: string; search: string } {
  const read = () => ({ path: window.location.pathname, search: window.location.search });
  const [location, setLocation] = useState(read);
  useEffect(() => {
    const update = () => setLocation(read());
    window.addEventListener('popstate', update);
    window.addEventListener(NAVIGATE, update);
    return () => {
      window.removeEventListener('popstate', update);
      window.removeEventListener(NAVIGATE, update);
    };
  }, []);
  return location;
}

/** An ordinary link that navigates in the page; modified clicks still open a new tab. */
export function Link(props: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    props.onClick?.(event);
    if (
      event.defaultPrevented ||
      event.button !== 0 ||
      event.metaKey ||
      event.ctrlKey ||
      event.shiftKey ||
      event.altKey
    ) {
      return;
    }
    event.preventDefault();
    navigate(props.href);
    window.scrollTo(0, 0);
  };
  return <a {...props} onClick={onClick} />;
}
