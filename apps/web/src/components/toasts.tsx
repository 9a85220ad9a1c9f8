import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { ReactNode } from 'react';

/**
 * Short confirmations that come and go (faucet, copy, approvals, errors), in one polite live
 * region at the edge of the screen so a screen reader hears them too: bottom right on a desk,
 * at the top under the header on a phone (away from the keyboard and the button just pressed).
 * They never sit over the field being typed in: while they would, they move to the other edge.
 * A tap passes through them to the page, except on their close button. Errors stay longer; a
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
  const region = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => keepClearOfFocus(region.current), [toasts]);
  useEffect(() => {
    const check = () => keepClearOfFocus(region.current);
    // focusout: once focus has gone (to nothing or elsewhere), the toasts may come back.
    const checkAfterFocusOut = () => setTimeout(check);
    document.addEventListener('focusin', check);
    document.addEventListener('focusout', checkAfterFocusOut);
    window.addEventListener('scroll', check, { passive: true });
    window.addEventListener('resize', check);
    return () => {
      document.removeEventListener('focusin', check);
      document.removeEventListener('focusout', checkAfterFocusOut);
      window.removeEventListener('scroll', check);
      window.removeEventListener('resize', check);
    };
  }, []);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div ref={region} className="toasts" role="status" aria-live="polite" data-testid="toasts">
        {toasts.map((toast) => (
          <div
            key={toast.id}
            className={`toast ${toast.tone}`}
            aria-hidden={toast.announce ? undefined : true}
          >
            <span className="toast-text">{toast.text}</span>
            {/* For a pointer only: out of the tab order and unheard, so the live region says just
                the text; the toast never takes focus, and goes by itself. */}
            <button
              type="button"
              className="toast-close"
              tabIndex={-1}
              aria-hidden="true"
              title="Dismiss"
              onClick={() => dismiss(toast.id)}
            >
              ×
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/**
 * Moves the toasts to the screen's other edge (`.away`) while, at their own edge, they would
 * cover the focused field. Measured at home with the class off; no paint happens in between.
 */
function keepClearOfFocus(region: HTMLElement | null): void {
  if (region === null) return;
  region.classList.remove('away');
  const field = document.activeElement;
  if (region.childElementCount === 0 || !(field instanceof HTMLElement)) return;
  if (!field.matches('input, select, textarea, [contenteditable="true"]')) return;
  const toasts = region.getBoundingClientRect();
  const box = field.getBoundingClientRect();
  const overlap =
    toasts.left < box.right &&
    box.left < toasts.right &&
    toasts.top < box.bottom &&
    box.top < toasts.bottom;
  if (overlap) region.classList.add('away');
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
