import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import type { ArcadeSettings } from '@coinop/protocol';
import { requestJson } from './api.js';

/** The arcade's public settings (`GET /api/arcade`), read once when the app starts. */
export type ArcadeSettingsState =
  | { status: 'loading' }
  | { status: 'loaded'; settings: ArcadeSettings }
  | { status: 'failed'; error: string };

const SettingsContext = createContext<ArcadeSettingsState>({ status: 'loading' });

export function useArcadeSettings(): ArcadeSettingsState {
  return useContext(SettingsContext);
}

export function ArcadeSettingsProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<ArcadeSettingsState>({ status: 'loading' });
  useEffect(() => {
    const abort = new AbortController();
    requestJson<ArcadeSettings>('/api/arcade', { signal: abort.signal }).then(
      (settings) => setState({ status: 'loaded', settings }),
      (error: unknown) => {
        if (!abort.signal.aborted) setState({ status: 'failed', error: (error as Error).message });
      },
    );
    return () => abort.abort();
  }, []);
  return <SettingsContext.Provider value={state}>{children}</SettingsContext.Provider>;
}
