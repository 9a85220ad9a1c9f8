import { useEffect, useState } from 'react';

/**
 * How long a dialog that spends the player's HST or signs them in waits before its Approve
 * button takes a click. A game in the iframe decides when its request's dialog appears, so it
 * could time it to open under a click the player was making on the game (a browser asks
 * extensions and permission prompts to wait the same way); a person reading the dialog loses
 * nothing.
 */
export const APPROVE_ARMING_MS = 800;

/** False until `APPROVE_ARMING_MS` after the component first rendered, then true. */
export function useArmed(): boolean {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setArmed(true), APPROVE_ARMING_MS);
    return () => clearTimeout(timer);
  }, []);
  return armed;
}
