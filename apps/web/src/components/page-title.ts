import { useEffect } from 'react';

/** Names the page in the browser's tab (and for the route announcer): `{title} · coinop arcade`. */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} · coinop arcade`;
  }, [title]);
}
