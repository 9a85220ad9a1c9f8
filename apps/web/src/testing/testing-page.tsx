import './testing.css';
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { TestingInvitation } from '@coinop/protocol';
import { ErrorAlert, Status, When, errorText } from '../portal/parts.js';
import { useTitle } from '../components/page-title.js';
import { Link } from '../router.js';
import { useSession } from '../session/session.js';
import { InvitationActions } from './invitation-actions.js';
import { Inviter } from './inviter.js';
import { chargeText, dailyLimitText } from './play-cost.js';
import { testingApi } from './testing-api.js';

/**
 * `/account/testing`: the games the player is invited to test (docs/concepts/consent.md,
 * "Testers"). An invitation is no consent: the player accepts it here, declines it, or leaves a
 * game they test.
 */
export function TestingPage() {
  useTitle('Testing');
  const { state, call } = useSession();
  const api = useMemo(() => testingApi(call), [call]);
  const playerId = state.status === 'signed-in' ? state.player.playerId : null;
  const [invitations, setInvitations] = useState<readonly TestingInvitation[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setInvitations(await api.list());
    } catch (e) {
      setError(`Could not load your invitations: ${errorText(e)}`);
    }
  }, [api]);

  useEffect(() => {
    setInvitations(null);
    setError(null);
    setStatus(null);
    if (playerId !== null) void reload();
  }, [playerId, reload]);

  const answered = (invitation: TestingInvitation) => {
    setError(null);
    setStatus(answerText(invitation));
    setInvitations((list) =>
      list === null ? list : list.map((i) => (i.gameId === invitation.gameId ? invitation : i)),
    );
  };
  const failed = (message: string) => {
    setStatus(null);
    setError(message);
  };

  const waiting = invitations?.filter((i) => i.state === 'invited') ?? [];
  const testing = invitations?.filter((i) => i.state === 'accepted') ?? [];
  const past = invitations?.filter((i) => i.state === 'declined' || i.state === 'left') ?? [];
  const list = (title: string, id: string, items: readonly TestingInvitation[]) =>
    items.length > 0 && (
      <section aria-labelledby={id}>
        <h2 id={id}>{title}</h2>
        <ul className="portal-list" aria-labelledby={id}>
          {items.map((invitation) => (
            <li key={invitation.gameId} className="portal-card invitation">
              <InvitationFacts invitation={invitation} />
              <InvitationActions invitation={invitation} onAnswered={answered} onError={failed} />
            </li>
          ))}
        </ul>
      </section>
    );

  return (
    <section className="page account-page testing-page">
      <h1>Testing</h1>
      <p>
        A developer can invite your wallet to test a game before the arcade publishes it. The
        invitation alone changes nothing: the game cannot charge you or see your balance.
      </p>
      <p className="notice-card">
        <strong>Accepting lets the game’s server charge you</strong> for plays, up to the daily
        limit you choose. Accept only games whose developer you know. You can change the limit on
        the game’s page, or leave at any time: leaving sets it to 0.
      </p>
      {state.status === 'loading' && <p role="status">Loading…</p>}
      {state.status === 'signed-out' && <p>Connect a wallet to see your invitations.</p>}
      {playerId !== null && invitations === null && error === null && (
        <p role="status">Loading your invitations…</p>
      )}
      <ErrorAlert error={error} />
      <Status text={status} />
      {invitations !== null && invitations.length === 0 && (
        <p className="empty">
          No invitations. When a developer invites your wallet to test a game, it shows here.
        </p>
      )}
      {list('Waiting for your answer', 'testing-waiting', waiting)}
      {list('Games you test', 'testing-accepted', testing)}
      {list('Declined or left', 'testing-past', past)}
    </section>
  );
}

function InvitationFacts({ invitation }: { invitation: TestingInvitation }) {
  const { gameId, gameName, state, published } = invitation;
  return (
    <div className="invitation-facts">
      <p className="card-title">
        {state === 'accepted' ? (
          <Link href={`/games/${encodeURIComponent(gameId)}`}>{gameName}</Link>
        ) : (
          gameName
        )}
      </p>
      <p className="muted">
        Invited by <Inviter invitation={invitation} />, <When iso={invitation.invitedAt} />
      </p>
      {!published && <p className="play-cost">{chargeText(invitation)}</p>}
      {invitation.answeredAt !== null && (
        <p className="muted">
          {STATE_TEXT[state]} <When iso={invitation.answeredAt} />
        </p>
      )}
      {published && (
        <p className="muted">
          Published: every player now sets what it may charge them, so testing no longer matters.
          {state === 'accepted' && ` ${dailyLimitText(invitation)}`}
        </p>
      )}
    </div>
  );
}

const STATE_TEXT: Record<TestingInvitation['state'], string> = {
  invited: 'Invited',
  accepted: 'Accepted',
  declined: 'Declined',
  left: 'Left',
};

function answerText(invitation: TestingInvitation): string {
  const { gameName, state } = invitation;
  switch (state) {
    case 'accepted':
      return `You test ${gameName}. ${dailyLimitText(invitation)}`;
    case 'declined':
      return `Declined: ${gameName} cannot charge you.`;
    case 'left':
      return `You left ${gameName}: it can no longer charge you, from its next play.`;
    case 'invited':
      return `${gameName} is waiting for your answer.`;
  }
}
