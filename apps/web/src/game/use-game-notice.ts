import { useCallback, useEffect, useRef, useState } from 'react';
import type { ScoreOutcome } from '../bridge/arcade-host.js';
import { useToast } from '../components/toasts.js';

/** What the game page says to the player beside the tiers. */
export interface GameNotice {
  text: string;
  tone: 'info' | 'error';
}

/**
 * The game page's message to the player and the celebration of a winning score. A message is
 * about the player it was said to: a change of `playerId` clears it.
 */
export function useGameNotice(playerId: string | null) {
  const [notice, setNotice] = useState<GameNotice | null>(null);
  const [celebration, setCelebration] = useState<ScoreOutcome | null>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const toast = useToast();
  // A message is about the player it was said to: signing in (or out, or as someone else) clears
  // it, so "Connect a wallet to play." goes once a wallet is connected.
  const clearNotice = useCallback(() => {
    setNotice(null);
    setCelebration(null);
  }, []);
  useEffect(clearNotice, [playerId, clearNotice]);
  // A problem is also shown where the player is looking when the message is out of sight (on a
  // phone it sits above the game, away from its Play button); in sight, it is said once. The
  // toast goes with the message.
  useEffect(() => {
    if (notice?.tone !== 'error' || inSight(noticeRef.current)) return undefined;
    return toast(notice.text, 'error', { announce: false });
  }, [notice, toast]);
  return { notice, setNotice, celebration, setCelebration, clearNotice, noticeRef };
}

/** Whether the whole of `element` is on screen, below the site's header. */
function inSight(element: HTMLElement | null): boolean {
  if (element === null) return false;
  const box = element.getBoundingClientRect();
  const header = document.querySelector('.site-header')?.getBoundingClientRect().bottom ?? 0;
  return box.height > 0 && box.top >= Math.max(0, header) && box.bottom <= window.innerHeight;
}
