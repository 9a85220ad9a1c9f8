import { useState, type ReactNode } from 'react';
import type { TestingInvitation } from '@coinop/protocol';
import { ErrorAlert } from '../portal/parts.js';
import { InvitationActions } from './invitation-actions.js';
import { Inviter } from './inviter.js';
import { chargeText } from './play-cost.js';
import { useInvitations } from './testing-api.js';

/**
 * On the page of a game the signed-in player cannot open: their invitation to test it, if they
 * have one, with Accept (the page then shows the preview) and Decline; else `fallback`, the page's
 * "not found".
 */
export function InvitationNotice({
  gameId,
  onAccepted,
  fallback,
}: {
  gameId: string;
  onAccepted: () => void;
  fallback: ReactNode;
}) {
  const invitations = useInvitations();
  const [answered, setAnswered] = useState<TestingInvitation | null>(null);
  const [error, setError] = useState<string | null>(null);
  const invitation =
    answered ?? invitations?.find((i) => i.gameId === gameId && i.state !== 'accepted');
  if (!invitation) return fallback;
  const { gameName, state } = invitation;
  return (
    <section className="invitation-notice" aria-labelledby="invitation-heading">
      <h1 id="invitation-heading">Invitation to test {gameName}</h1>
      <p>
        <Inviter invitation={invitation} /> invited you to test <strong>{gameName}</strong> before
        the arcade publishes it.{' '}
        {state === 'invited'
          ? 'Until you accept, it cannot charge you, and you cannot open it.'
          : `You ${state === 'left' ? 'left' : 'declined'}: it cannot charge you. You may still accept.`}
      </p>
      <p className="notice-card">
        <strong>Accepting lets its server charge you</strong> for plays, up to the daily limit you
        choose below. You can change it on this page once you accept, or leave (Account → Testing).{' '}
        {chargeText(invitation)}
      </p>
      <InvitationActions
        invitation={invitation}
        onAnswered={(next) => {
          setAnswered(next);
          if (next.state === 'accepted') onAccepted();
        }}
        onError={setError}
      />
      <ErrorAlert error={error} />
    </section>
  );
}
