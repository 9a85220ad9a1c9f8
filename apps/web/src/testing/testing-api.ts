import { useEffect, useState } from 'react';
import type { AllowanceRequest, TestingInvitation, TestingInvitationList } from '@coinop/protocol';
import { useSession, type Session } from '../session/session.js';

/**
 * The signed-in player's invitations to test games (`/api/player/testing`,
 * docs/concepts/consent.md, "Testers"): accepting lets the unpublished game charge them, within
 * the daily limit they choose with it.
 */

type Call = Session['call'];

const one = (gameId: string) => `/player/testing/${encodeURIComponent(gameId)}`;

/** Said on the window whenever the player answers an invitation, so every count is read again. */
const CHANGED = 'coinop:testing-changed';

/** A typed client over the session's `call`, so every request carries the player's token. */
export function testingApi(call: Call) {
  const changed = (invitation: TestingInvitation) => {
    window.dispatchEvent(new Event(CHANGED));
    return invitation;
  };
  return {
    list: async () => (await call<TestingInvitationList>('/player/testing')).invitations,
    /** `dailyLimit` as the player typed it (HST): it becomes their allowance for the game. */
    accept: async (gameId: string, dailyLimit: string) =>
      changed(
        await call<TestingInvitation>(
          one(gameId),
          { dailyLimit } satisfies AllowanceRequest,
          'PUT',
        ),
      ),
    /** Declines a waiting invitation, or leaves once accepted (which revokes the allowance). */
    decline: async (gameId: string) =>
      changed(await call<TestingInvitation>(one(gameId), undefined, 'DELETE')),
  };
}

/** The signed-in player's invitations, read again when any is answered; null while unknown. */
export function useInvitations(): readonly TestingInvitation[] | null {
  const { state, call } = useSession();
  const playerId = state.status === 'signed-in' ? state.player.playerId : null;
  const [invitations, setInvitations] = useState<readonly TestingInvitation[] | null>(null);
  useEffect(() => {
    setInvitations(null);
    if (playerId === null) return;
    let current = true;
    const read = () =>
      testingApi(call)
        .list()
        .then((list) => current && setInvitations(list))
        // A count in the menu is no place for an error: the Testing page says it.
        .catch(() => undefined);
    void read();
    window.addEventListener(CHANGED, read);
    return () => {
      current = false;
      window.removeEventListener(CHANGED, read);
    };
  }, [playerId, call]);
  return invitations;
}
