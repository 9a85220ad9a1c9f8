import { describe, expect, it } from 'vitest';
import {
  CHARGE_GRANTS,
  CoinopError,
  answeredAllowance,
  removedAllowance,
  answeredInvitation,
  assertConsentFrom,
  isTester,
  playerActor,
  type ChargeGrant,
  type ConsentActor,
  type ConsentCredential,
  type InvitationAnswer,
  type InvitationState,
} from '../../src/index.js';

const PLAYER = 'p1';
const GAME = 'g1';
const grants = Object.keys(CHARGE_GRANTS) as ChargeGrant[];
const playerGrants = grants.filter((kind) => kind !== 'default_allowance');

function refusal(kind: ChargeGrant, actor: ConsentActor, playerId: string | null = PLAYER) {
  try {
    assertConsentFrom({ kind, playerId, gameId: GAME }, actor);
  } catch (error) {
    return error;
  }
  return null;
}

describe('the consent rule: every grant comes from its own player', () => {
  it('names every grant that can make a charge possible, each with its credentials', () => {
    expect(Object.fromEntries(grants.map((kind) => [kind, [...CHARGE_GRANTS[kind].from]]))).toEqual(
      {
        allowance: ['player_session'],
        login_allowance: ['player_session'],
        accepted_invitation: ['player_session'],
        developer_wallet: ['player_session', 'player_api_key'],
        signed_approval: ['player_signature'],
        chain_lock: ['player_chain_transaction'],
        default_allowance: ['operator'],
      },
    );
  });

  it.each(playerGrants)('lets the player give %s with the credential it takes', (kind) => {
    const credentials: readonly ConsentCredential[] = CHARGE_GRANTS[kind].from;
    expect(credentials.length).toBeGreaterThan(0);
    for (const credential of credentials) {
      if (credential === 'operator') throw new TypeError(`${kind} is a player's grant`);
      expect(refusal(kind, playerActor(PLAYER, credential))).toBeNull();
    }
  });

  it.each(playerGrants)('refuses %s from anyone but its player', (kind) => {
    const strangers: ConsentActor[] = [
      playerActor('p2', CHARGE_GRANTS[kind].from[0] as 'player_session'),
      { kind: 'developer', developerId: 'd1' },
      { kind: 'game_server', gameId: GAME },
      // The operator is trusted with everything, yet gives no player's consent for them.
      { kind: 'operator' },
    ];
    for (const actor of strangers) {
      const error = refusal(kind, actor);
      expect(error).toBeInstanceOf(CoinopError);
      expect(error).toMatchObject({
        code: 'consent_requires_player',
        details: { grant: kind, playerId: PLAYER, gameId: GAME },
      });
    }
  });

  it('refuses a grant given with a credential it does not take', () => {
    expect(refusal('allowance', playerActor(PLAYER, 'player_signature'))).toMatchObject({
      code: 'consent_requires_player',
      message:
        "only player p1 can give allowance (the player's daily allowance for a game (PUT " +
        '/player/allowances/{gameId}; a revocation is an allowance of 0)), with player_session; ' +
        'player p1 with player_signature cannot',
    });
    expect(refusal('signed_approval', playerActor(PLAYER, 'player_session'))).toMatchObject({
      code: 'consent_requires_player',
    });
    expect(refusal('accepted_invitation', playerActor(PLAYER, 'player_api_key'))).toMatchObject({
      code: 'consent_requires_player',
    });
  });

  it("leaves the arcade's default to the operator alone", () => {
    expect(refusal('default_allowance', { kind: 'operator' }, null)).toBeNull();
    expect(refusal('default_allowance', playerActor(PLAYER, 'player_session'), null)).toMatchObject(
      {
        code: 'consent_requires_player',
        message: expect.stringMatching(/^only the operator can give default_allowance/),
      },
    );
    expect(
      refusal('default_allowance', { kind: 'developer', developerId: 'd1' }, null),
    ).toMatchObject({ code: 'consent_requires_player' });
  });
});

describe('tester invitations', () => {
  it.each<[InvitationState, 'accept' | 'decline', InvitationState]>([
    ['invited', 'accept', 'accepted'],
    ['invited', 'decline', 'declined'],
    ['accepted', 'accept', 'accepted'],
    ['accepted', 'decline', 'left'],
    ['declined', 'accept', 'accepted'],
    ['declined', 'decline', 'declined'],
    ['left', 'accept', 'accepted'],
    ['left', 'decline', 'left'],
  ])('%s, answered %s, is %s', (state, answer, next) => {
    const answered = answer === 'accept' ? { accept: true, dailyUnits: 5n } : { accept: false };
    expect(answeredInvitation(state, answered as InvitationAnswer)).toBe(next);
  });

  it.each<[string, InvitationState, InvitationAnswer, bigint | null]>([
    ['accepting sets the amount named', 'invited', { accept: true, dailyUnits: 3n }, 3n],
    ['accepting after leaving sets it, 0 too', 'left', { accept: true, dailyUnits: 0n }, 0n],
    ['accepting again sets it anew', 'accepted', { accept: true, dailyUnits: 7n }, 7n],
    ['leaving revokes it', 'accepted', { accept: false }, 0n],
    ['declining a waiting invitation leaves it', 'invited', { accept: false }, null],
    ['declining again leaves it', 'declined', { accept: false }, null],
    ['saying no after leaving leaves it', 'left', { accept: false }, null],
  ])('%s', (_, state, answer, allowance) => {
    expect(answeredAllowance(state, answer)).toBe(allowance);
  });

  it.each<[InvitationState, boolean, bigint | null]>([
    ['accepted', false, 0n],
    ['accepted', true, null],
    ['invited', false, null],
    ['declined', false, null],
    ['left', false, null],
  ])(
    'removing a tester whose invitation is %s (published: %s) sets the allowance to %s',
    (state, published, allowance) => {
      expect(removedAllowance(state, published)).toBe(allowance);
    },
  );

  it('makes only an accepted invitation a tester', () => {
    const states: InvitationState[] = ['invited', 'accepted', 'declined', 'left'];
    expect(states.filter(isTester)).toEqual(['accepted']);
  });
});
