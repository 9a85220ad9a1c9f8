import { useEffect, useId, useRef } from 'react';
import type { Allowance } from '@coinop/protocol';
import { ErrorAlert, Status } from '../portal/parts.js';
import { Hst } from '../components/hst.js';
import { allowsNothing, describeAllowance } from './allowances-api.js';
import { DailyLimitInput } from './daily-limit-input.js';
import { useAllowance, useAllowanceEdits } from './use-allowance.js';

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
  const reads = useAllowance(gameId, charged);
  const { state, playerId, allowance, loadError, status, error } = reads;
  const edits = useAllowanceEdits(gameId, gameName, reads);
  const panel = useRef<HTMLElement>(null);
  const headingId = useId();

  // A refused play sends the player here: once the panel has its content, bring it into view.
  const settled = state.status === 'signed-out' || allowance !== null || loadError !== null;
  useEffect(() => {
    if (settled && window.location.hash === `#${ALLOWANCE_ANCHOR}`) {
      panel.current?.scrollIntoView({ block: 'start' });
    }
  }, [settled]);

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
          <AllowanceFigures allowance={allowance} />
          <AllowanceForm
            allowance={allowance}
            limit={reads.limit}
            setLimit={reads.setLimit}
            edits={edits}
          />
        </>
      )}
      <ErrorAlert error={error} />
      <Status text={status} />
    </section>
  );
}

/** What the game may charge, in a sentence, and what it spent and may spend today. */
function AllowanceFigures({ allowance }: { allowance: Allowance }) {
  return (
    <>
      <p className="allowance-summary" data-testid="allowance-summary">
        {describeAllowance(allowance)}
      </p>
      <dl className="facts allowance-facts">
        <dt>Used today</dt>
        <dd>
          <Hst hst={allowance.spentToday} />
        </dd>
        <dt>Remaining today</dt>
        <dd>
          {allowance.remainingToday === null ? 'Unlimited' : <Hst hst={allowance.remainingToday} />}
        </dd>
      </dl>
    </>
  );
}

/** The daily limit to save, and Revoke while the game may charge anything. */
function AllowanceForm({
  allowance,
  limit,
  setLimit,
  edits,
}: {
  allowance: Allowance;
  limit: string;
  setLimit: (limit: string) => void;
  edits: ReturnType<typeof useAllowanceEdits>;
}) {
  const { busy, save, revoke, limitInput } = edits;
  const inputId = useId();
  const hintId = useId();
  return (
    <form
      className="allowance-form"
      aria-label="Daily limit"
      noValidate
      onSubmit={(event) => void save(event)}
    >
      <div className="field">
        <label htmlFor={inputId}>Daily limit (HST)</label>
        <DailyLimitInput
          id={inputId}
          inputRef={limitInput}
          aria-describedby={hintId}
          value={limit}
          onChange={(e) => setLimit(e.target.value)}
        />
        <p id={hintId} className="hint">
          The most this game may lock from you per day; the day starts at 00:00 UTC. 0 allows only
          free plays.
        </p>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Save
        </button>
        {!allowsNothing(allowance.dailyLimit) && (
          <button type="button" disabled={busy} onClick={() => void revoke()}>
            Revoke allowance
          </button>
        )}
      </div>
    </form>
  );
}
