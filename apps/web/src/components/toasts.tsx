import { createContext, useCallback, useContext, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';

/**
 * Short confirmations that come and go (faucet, copy, approvals, errors), in one polite live
 * region at the corner of the screen so a screen reader hears them too. Errors stay longer; a
 * page's own lasting messages (a form's error) stay where they are.
 */

export type ToastTone = 'ok' | 'info' | 'error';

interface Toast {
  id: number;
  text: string;
  tone: ToastTone;
  announce: boolean;
}

/**
 * `announce: false` shows a toast without saying it again to screen readers, for text that a
 * live region on the page already says (the game page's message, seen wherever one scrolled).
 */
/** Shows a toast; the function it returns takes it down early (when what it says stops being true). */
type Show = (text: string, tone?: ToastTone, options?: { announce?: boolean }) => () => void;

/** How long a toast stays: long enough to read a sentence, longer for an error. */
const TOAST_MS = 4_000;
const ERROR_TOAST_MS = 8_000;
/** At most this many at once: older ones go first. */
const TOASTS_MAX = 3;

const ToastContext = createContext<Show>(() => () => undefined);

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(0);
  const dismiss = useCallback((id: number) => {
    setToasts((all) => all.filter((t) => t.id !== id));
  }, []);
  const show = useCallback<Show>(
    (text, tone = 'ok', options = {}) => {
      const id = ++next.current;
      const toast = { id, text, tone, announce: options.announce ?? true };
      setToasts((all) => [...all.slice(-(TOASTS_MAX - 1)), toast]);
      setTimeout(() => dismiss(id), tone === 'error' ? ERROR_TOAST_MS : TOAST_MS);
      return () => dismiss(id);
    },
    [dismiss],
  );
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toasts" role="status" aria-live="polite" data-testid="toasts">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast ${toast.tone}`}
            aria-hidden={toast.announce ? undefined : true}
          >
            {toast.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/** Shows a toast: `toast('Copied')`, `toast('Could not …', 'error')`. */
export function useToast(): Show {
  return useContext(ToastContext);
}

/**
 * Copies text to the clipboard and says so in a toast (`'Game id copied.'`); resolves whether it
 * worked. Without clipboard access (an insecure origin, a denied permission) it says how to copy
 * by hand instead.
 */
export function useCopy(): (text: string, what: string) => Promise<boolean> {
  const toast = useToast();
  return useCallback(
    async (text, what) => {
      try {
        await navigator.clipboard.writeText(text);
        toast(`${what} copied.`);
        return true;
      } catch {
        toast(`Could not copy the ${what.toLowerCase()}: select it and copy it yourself.`, 'error');
        return false;
      }
    },
    [toast],
  );
}
