import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import type { ArcadeSettings } from '@coinop/protocol';
import { requestJson } from './api.js';

/**
 * The arcade's public settings (`GET /api/arcade`): read once, when a page first needs them (the
 * development notice above every page, the account page, the portal's earnings), and shared after
 * that. The demo arcade asks the arcade for nothing, so it shows no notice.
 */
export type ArcadeSettingsState =
  | { status: 'loading' }
  | { status: 'loaded'; settings: ArcadeSettings }
  | { status: 'failed'; error: string };

interface SettingsContextValue {
  state: ArcadeSettingsState;
  load(): void;
}

const SettingsContext = createContext<SettingsContextValue | null>(null);

export function useArcadeSettings(): ArcadeSettingsState {
  const context = useContext(SettingsContext);
  if (!context) throw new Error('useArcadeSettings needs an <ArcadeSettingsProvider> above it');
  const { state, load } = context;
  useEffect(load, [load]);
  return state;
}

export function ArcadeSettingsProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ArcadeSettingsState>({ status: 'loading' });
  const started = useRef(false);
  const load = useCallback(() => {
    if (started.current) return;
    started.current = true;
    requestJson<ArcadeSettings>('/api/arcade').then(
      (settings) => setState({ status: 'loaded', settings }),
      (error: unknown) => {
        // A later page may try again.
        started.current = false;
        setState({ status: 'failed', error: (error as Error).message });
      },
    );
  }, []);
  const value = useMemo(() => ({ state, load }), [state, load]);
  return <SettingsContext.Provider value={value}>{children}</SettingsContext.Provider>;
}
