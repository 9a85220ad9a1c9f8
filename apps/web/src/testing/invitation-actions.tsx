import './testing.css';
import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { TestingInvitation } from '@coinop/protocol';
import { hstUnits } from '../account/hst-amounts.js';
import { HST_AMOUNT } from '../allowances/allowances-api.js';
import { DailyLimitInput } from '../allowances/daily-limit-input.js';
import { errorText } from '../portal/parts.js';
import { useSession } from '../session/session.js';
import { testingApi } from './testing-api.js';

/**
 * Accept (with the daily limit the player chooses) and Decline for a waiting invitation, or one
 * the player declined or left; Leave for an accepted one: the player's own answer, with their own
 * session.
 */
export function InvitationActions({
  invitation,
  onAnswered,
  onError,
}: {
  invitation: TestingInvitation;
  onAnswered: (answered: TestingInvitation) => void;
  onError: (message: string) => void;
}) {
  const { call } = useSession();
  const api = useMemo(() => testingApi(call), [call]);
  const [busy, setBusy] = useState(false);
  const { gameId, gameName, state } = invitation;

  const answer = async (send: () => Promise<TestingInvitation>) => {
    setBusy(true);
    try {
      onAnswered(await send());
    } catch (e) {
      onError(`Could not answer the invitation to test ${gameName}: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };
  const decline = () => void answer(() => api.decline(gameId));

  if (state === 'accepted') {
    return (
      <div className="row-actions">
        <button
          type="button"
          aria-label={`Stop testing ${gameName}`}
          disabled={busy}
          onClick={decline}
        >
          Leave
        </button>
      </div>
    );
  }
  return (
    <AcceptForm
      invitation={invitation}
      busy={busy}
      onAccept={(dailyLimit) => void answer(() => api.accept(gameId, dailyLimit))}
      onDecline={decline}
    />
  );
}

/**
 * The daily limit, then Accept (and Decline while the invitation waits). Nothing is suggested as
 * the limit: what the game may lock a day is the player's own choice, so the field starts empty.
 */
function AcceptForm({
  invitation,
  busy,
  onAccept,
  onDecline,
}: {
  invitation: TestingInvitation;
  busy: boolean;
  onAccept: (dailyLimit: string) => void;
  onDecline: () => void;
}) {
  const { gameName, state, highestPlayCost } = invitation;
  const [limit, setLimit] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const hintId = useId();
  const problemId = useId();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = limit.trim();
    if (!HST_AMOUNT.test(value)) {
      setProblem(
        value === ''
          ? 'Choose a daily limit in HST to accept, such as 5; 0 allows only free plays.'
          : 'Enter the daily limit in HST as a number such as 10 or 2.5, with at most 8 decimals.',
      );
      input.current?.focus();
      return;
    }
    setProblem(null);
    onAccept(value);
  };

  return (
    <form
      className="field accept-invitation"
      aria-label={`Answer the invitation to test ${gameName}`}
      noValidate
      onSubmit={submit}
    >
      <label htmlFor={inputId}>
        Daily limit<span className="visually-hidden"> for {gameName}</span> (HST)
      </label>
      <p id={hintId} className="hint">
        The most it may lock from you per UTC day. 0 allows only free plays.
      </p>
      <div className="accept-row">
        <DailyLimitInput
          id={inputId}
          inputRef={input}
          placeholder={suggestion(highestPlayCost)}
          aria-describedby={problem === null ? hintId : `${hintId} ${problemId}`}
          aria-invalid={problem !== null}
          value={limit}
          onChange={(e) => setLimit(e.target.value)}
        />
        <div className="form-actions">
          <button
            type="submit"
            className="primary"
            aria-label={`Accept the invitation to test ${gameName}`}
            disabled={busy}
          >
            Accept
          </button>
          {state === 'invited' && (
            <button
              type="button"
              aria-label={`Decline the invitation to test ${gameName}`}
              disabled={busy}
              onClick={onDecline}
            >
              Decline
            </button>
          )}
        </div>
      </div>
      {problem !== null && (
        <p id={problemId} role="alert" className="error">
          {problem}
        </p>
      )}
    </form>
  );
}

/** A play's highest cost as the placeholder's example: a limit below it allows no such play. */
function suggestion(highestPlayCost: string | null): string | undefined {
  return highestPlayCost !== null && hstUnits(highestPlayCost) > 0n
    ? `e.g. ${highestPlayCost}`
    : undefined;
}
