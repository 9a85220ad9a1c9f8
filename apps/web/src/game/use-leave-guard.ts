import { useEffect } from 'react';
import { BEFORE_NAVIGATE, type BeforeNavigate } from '../router.js';

/**
 * While `question` is not null, leaving the page asks first: the browser's own prompt for a
 * reload, a closed tab or another site (`beforeunload`, whose text browsers do not show), and
 * `question` in a confirm for the app's links and Back within the app. Null asks nothing.
 */
export function useLeaveGuard(question: string | null): void {
  useEffect(() => {
    if (question === null) return undefined;
    const here = window.location.pathname + window.location.search;
    const onUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older Chromium asks only when returnValue is set.
      event.returnValue = '';
    };
    const onNavigate = (event: Event) => {
      const { to, popped } = (event as CustomEvent<BeforeNavigate>).detail;
      // A #fragment of this page (the allowance link, or Back to it) leaves nothing.
      if (to.split('#')[0] === here) return;
      if (window.confirm(question)) return;
      event.preventDefault();
      // Back and Forward have moved the address already: staying puts it back.
      if (popped) window.history.pushState(null, '', here);
    };
    window.addEventListener('beforeunload', onUnload);
    window.addEventListener(BEFORE_NAVIGATE, onNavigate);
    return () => {
      window.removeEventListener('beforeunload', onUnload);
      window.removeEventListener(BEFORE_NAVIGATE, onNavigate);
    };
  }, [question]);
}
