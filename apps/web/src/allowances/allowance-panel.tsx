import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { formatHst, type Allowance } from '@coinop/protocol';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import { ErrorAlert, Status, errorText } from '../portal/parts.js';
import { useSession } from '../session/session.js';
import { Hst } from '../components/hst.js';
import { HST_AMOUNT, allowancesApi, describeAllowance } from './allowances-api.js';

/** The element id a refused play's `grantUrl` points at (`/games/{gameId}#allowance`). */
export const ALLOWANCE_ANCHOR = 'allowance';

/**
 * The game page's allowance panel: what this game's server may charge the signed-in player a day,
 * what it charged today, and the form to change or revoke it (docs/concepts/consent.md). The page
 * bumps `charged` when the game's server may have charged the player (it read its board after a
 * round), and the session's `moneyMoves` counts every other move of HST: what was spent today is
 * read again, the form left as it is.
 */
export function AllowancePanel({
  gameId,
  gameName,
  charged = 0,
}: {
  gameId: string;
  gameName: string;
  charged?: number;
}) {
  const { state, call, moneyMoves } = useSession();
  const api = useMemo(() => allowancesApi(call), [call]);
  const playerId = state.status === 'signed-in' ? state.player.playerId : null;
  const [allowance, setAllowance] = useState<Allowance | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [limit, setLimit] = useState('');
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const panel = useRef<HTMLElement>(null);
  const limitInput = useRef<HTMLInputElement>(null);
  const headingId = useId();
  const inputId = useId();
  const hintId = useId();

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
          loaded.source === 'player' && loaded.dailyLimit
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

  // A refused play sends the player here: once the panel has its content, bring it into view.
  const settled = state.status === 'signed-out' || allowance !== null || loadError !== null;
  useEffect(() => {
    if (settled && window.location.hash === `#${ALLOWANCE_ANCHOR}`) {
      panel.current?.scrollIntoView({ block: 'start' });
    }
  }, [settled]);

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
        saved.dailyLimit === 0
          ? `Saved: ${gameName} can no longer charge you, from its next play.`
          : `Saved: ${gameName} may charge you up to ${formatHstUnits(hstUnits(saved.dailyLimit ?? 0))} a day.`,
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

  return (
    <section
      id={ALLOWANCE_ANCHOR}
      ref={panel}
      className="page allowance"
      aria-labelledby={headingId}
    >
      <h2 id={headingId}>What this game may charge you</h2>
      <p className="muted">
        Your daily allowance covers the plays the game’s server opens for you; plays you approve in
        the arcade with your wallet are asked each time and do not count against it.
      </p>
      {state.status === 'signed-out' && (
        <p>Connect a wallet to see and set what this game may charge you a day.</p>
      )}
      {(state.status === 'loading' ||
        (playerId !== null && allowance === null && loadError === null)) && (
        <p role="status">Loading your allowance…</p>
      )}
      <ErrorAlert error={loadError} />
      {allowance !== null && (
        <>
          <p className="allowance-summary" data-testid="allowance-summary">
            {describeAllowance(allowance)}
          </p>
          <dl className="facts allowance-facts">
            <dt>Spent today</dt>
            <dd>
              <Hst hst={allowance.spentToday} />
            </dd>
            <dt>Remaining today</dt>
            <dd>
              {allowance.remainingToday === null ? (
                'Unlimited'
              ) : (
                <Hst hst={allowance.remainingToday} />
              )}
            </dd>
          </dl>
          <form
            className="allowance-form"
            aria-label="Daily limit"
            noValidate
            onSubmit={(event) => void save(event)}
          >
            <div className="field">
              <label htmlFor={inputId}>Daily limit (HST)</label>
              <input
                id={inputId}
                ref={limitInput}
                type="number"
                min={0}
                step="any"
                inputMode="decimal"
                aria-describedby={hintId}
                value={limit}
                onChange={(e) => setLimit(e.target.value)}
              />
              <p id={hintId} className="hint">
                The most this game may lock from you per day; the day starts at 00:00 UTC. 0 allows
                nothing.
              </p>
            </div>
            <div className="form-actions">
              <button type="submit" className="primary" disabled={busy}>
                Save
              </button>
              {allowance.dailyLimit !== 0 && (
                <button type="button" disabled={busy} onClick={() => void revoke()}>
                  Revoke allowance
                </button>
              )}
            </div>
          </form>
        </>
      )}
      <ErrorAlert error={error} />
      <Status text={status} />
    </section>
  );
}
