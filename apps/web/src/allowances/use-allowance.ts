import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { formatHst, type Allowance } from '@coinop/protocol';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import { errorText } from '../portal/parts.js';
import { useSession } from '../session/session.js';
import { HST_AMOUNT, allowancesApi, allowsNothing } from './allowances-api.js';

/**
 * The signed-in player's allowance for `gameId`, read on sign-in and again after `charged` or
 * the session's `moneyMoves` change (what was spent today; the typed limit left as it is), and
 * the panel's messages.
 */
export function useAllowance(gameId: string, charged: number) {
  const { state, call, moneyMoves } = useSession();
  const api = useMemo(() => allowancesApi(call), [call]);
  const playerId = state.status === 'signed-in' ? state.player.playerId : null;
  const [allowance, setAllowance] = useState<Allowance | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [limit, setLimit] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setAllowance(null);
    setLoadError(null);
    setStatus(null);
    setError(null);
    if (playerId === null) return;
    let live = true;
    api.get(gameId).then(
      (loaded) => {
        if (!live) return;
        setAllowance(loaded);
        setLimit(
          loaded.source === 'player' &&
            loaded.dailyLimit !== null &&
            !allowsNothing(loaded.dailyLimit)
            ? formatHst(hstUnits(loaded.dailyLimit))
            : '',
        );
      },
      (e: unknown) => live && setLoadError(`Could not load your allowance: ${errorText(e)}`),
    );
    return () => {
      live = false;
    };
  }, [api, gameId, playerId]);

  useEffect(() => {
    if ((charged === 0 && moneyMoves === 0) || playerId === null) return;
    let live = true;
    // A failed re-read keeps the figures shown: the next round reads them again.
    api.get(gameId).then(
      (loaded) => live && setAllowance(loaded),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [api, gameId, playerId, charged, moneyMoves]);

  const reads = { state, api, playerId, allowance, setAllowance, loadError, limit, setLimit };
  return { ...reads, status, setStatus, error, setError };
}

/** Saving a typed daily limit, or revoking the allowance, saying how it went. */
export function useAllowanceEdits(
  gameId: string,
  gameName: string,
  reads: ReturnType<typeof useAllowance>,
) {
  const { api, limit, setAllowance, setLimit, setStatus, setError } = reads;
  const [busy, setBusy] = useState(false);
  const limitInput = useRef<HTMLInputElement>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setStatus(null);
    setError(null);
    const value = limit.trim();
    if (!HST_AMOUNT.test(value)) {
      setError(
        'Enter the daily limit in HST as a number such as 10 or 2.5, with at most 8 decimals.',
      );
      return;
    }
    setBusy(true);
    try {
      const saved = await api.set(gameId, value);
      setAllowance(saved);
      setStatus(
        saved.dailyLimit === null
          ? `Saved: ${gameName} may charge you without a daily limit.`
          : allowsNothing(saved.dailyLimit)
            ? `Saved: ${gameName} can no longer charge you, from its next play.`
            : `Saved: ${gameName} may charge you up to ${formatHstUnits(hstUnits(saved.dailyLimit))} a day.`,
      );
    } catch (e) {
      setError(`Could not save the daily limit: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    setStatus(null);
    setError(null);
    setBusy(true);
    try {
      setAllowance(await api.revoke(gameId));
      setLimit('');
      // The Revoke button goes with the allowance: keep the keyboard in the form.
      limitInput.current?.focus();
      setStatus(`Revoked: ${gameName} can no longer charge you, from its next play.`);
    } catch (e) {
      setError(`Could not revoke the allowance: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return { busy, save, revoke, limitInput };
}
