import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react';

/** A few routes do not need a router library: the History API and one event. */

const NAVIGATE = 'coinop:navigate';

/**
 * Sent (cancelable) on the window before the app moves to another page: a page that must not be
 * left unasked (a paid play in progress) cancels it when the player chooses to stay.
 */
export const BEFORE_NAVIGATE = 'coinop:before-navigate';

/** What a `BEFORE_NAVIGATE` event carries. */
export interface BeforeNavigate {
  /** Where the app is going: a path, with its query and fragment if any. */
  to: string;
  /** True for Back or Forward, which have moved the address already. */
  popped: boolean;
}

/** The answer to each Back or Forward, so that every `useLocation` hears the one answer. */
const popAnswers = new WeakMap<Event, boolean>();

/**
 * Whether the page may be left: false when a page asked to be left only with the player's word
 * and they chose to stay. `pop` is the Back or Forward that moved the address, asked about once.
 */
function mayLeave(to: string, pop?: PopStateEvent): boolean {
  const known = pop && popAnswers.get(pop);
  if (known !== undefined) return known;
  const detail: BeforeNavigate = { to, popped: pop !== undefined };
  const yes = window.dispatchEvent(new CustomEvent(BEFORE_NAVIGATE, { cancelable: true, detail }));
  if (pop) popAnswers.set(pop, yes);
  return yes;
}

/**
 * Moves the app to `to`; false when the page asked to be left only with the player's word and
 * they chose to stay.
 */
export function navigate(to: string): boolean {
  if (!mayLeave(to)) return false;
  window.history.pushState(null, '', to);
  window.dispatchEvent(new Event(NAVIGATE));
  return true;
}

/** The current path and query, updated on links, back and forward. */
export function useLocation(): { path: string; search: string } {
  const read = () => ({ path: window.location.pathname, search: window.location.search });
  const [location, setLocation] = useState(read);
  useEffect(() => {
    const update = () => setLocation(read());
    // Back and Forward have moved the address already: a page that keeps the player puts it back.
    const pop = (event: PopStateEvent) => {
      const { pathname, search, hash } = window.location;
      if (mayLeave(pathname + search + hash, event)) update();
    };
    window.addEventListener('popstate', pop);
    window.addEventListener(NAVIGATE, update);
    return () => {
      window.removeEventListener('popstate', pop);
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
    if (navigate(props.href)) window.scrollTo(0, 0);
  };
  return <a {...props} onClick={onClick} />;
}
