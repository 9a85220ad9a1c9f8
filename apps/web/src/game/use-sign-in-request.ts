import { useCallback, useEffect, useRef, useState } from 'react';
import { useSession } from '../session/session.js';

interface Request {
  resolve: (signedIn: boolean) => void;
  /** The dialog closed: the answer is given once the session shows how it ended. */
  closed: boolean;
}

/**
 * A game's request that needs a signed-in player, made while signed out: `signIn` opens the
 * wallet connect dialog (`asking`; the page renders it, calling `closed` when it closes) and
 * resolves true once the player is signed in, false when they closed it without connecting.
 * One at a time: a second request meanwhile is answered false.
 */
export function useSignInRequest() {
  const { state } = useSession();
  const [request, setRequest] = useState<Request | null>(null);
  const current = useRef<Request | null>(null);

  const signIn = useCallback(
    () =>
      new Promise<boolean>((resolve) => {
        if (current.current !== null) return resolve(false);
        const next = { resolve, closed: false };
        current.current = next;
        setRequest(next);
      }),
    [],
  );
  const closed = useCallback(() => setRequest((r) => r && { ...r, closed: true }), []);

  // Answered after the render that closed the dialog: by then the page (and the bridge, which
  // reads it) sees the player the dialog signed in, if it did.
  useEffect(() => {
    if (request?.closed !== true) return;
    current.current = null;
    setRequest(null);
    request.resolve(state.status === 'signed-in');
  }, [request, state.status]);

  return { signIn, asking: request !== null && !request.closed, closed };
}
