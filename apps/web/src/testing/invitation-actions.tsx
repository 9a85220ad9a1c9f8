import { useMemo, useState } from 'react';
import type { TestingInvitation } from '@coinop/protocol';
import { errorText } from '../portal/parts.js';
import { useSession } from '../session/session.js';
import { testingApi } from './testing-api.js';

/**
 * Accept and Decline for a waiting invitation (or one the player declined or left), Leave for an
 * accepted one: the player's own answer, with their own session.
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
  const { gameName, state } = invitation;

  const answer = async (accept: boolean) => {
    setBusy(true);
    try {
      onAnswered(
        accept ? await api.accept(invitation.gameId) : await api.decline(invitation.gameId),
      );
    } catch (e) {
      onError(`Could not answer the invitation to test ${gameName}: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  if (state === 'accepted') {
    return (
      <button
        type="button"
        aria-label={`Stop testing ${gameName}`}
        disabled={busy}
        onClick={() => void answer(false)}
      >
        Leave
      </button>
    );
  }
  return (
    <>
      <button
        type="button"
        className="primary"
        aria-label={`Accept the invitation to test ${gameName}`}
        disabled={busy}
        onClick={() => void answer(true)}
      >
        Accept
      </button>
      {state === 'invited' && (
        <button
          type="button"
          aria-label={`Decline the invitation to test ${gameName}`}
          disabled={busy}
          onClick={() => void answer(false)}
        >
          Decline
        </button>
      )}
    </>
  );
}
