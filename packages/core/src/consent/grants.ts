import { CoinopError } from '../errors.js';

/**
 * The one consent rule (docs/concepts/consent.md, issue 27): every grant that can make a game
 * able to charge a player, and the credential each must come from. Nobody consents for a player
 * but the player, with their own credential; the operator, trusted with everything, sets only the
 * arcade-wide default. Services that create or change a grant call `assertConsentFrom` with the
 * actor that presents it; the statement that opens a play applies the grants (`chargeVerdict`).
 */

/** A credential a grant can come from. */
export type ConsentCredential =
  /** The player's web session (the arcade web app, signed in with the player's wallet). */
  | 'player_session'
  /** An API key of the player's own developer account (issued to the same wallet's session). */
  | 'player_api_key'
  /** The player's wallet signature over the exact text of what it approves (EIP-191). */
  | 'player_signature'
  /** A transaction the player's own wallet sent to the vault (`lockPlay`). */
  | 'player_chain_transaction'
  /** The operator's configuration or admin token. */
  | 'operator';

/** What a grant is, where it is given, and which credentials may give it. */
export interface GrantRule {
  readonly description: string;
  readonly from: readonly ConsentCredential[];
}

/**
 * Every grant that can make a game able to charge a player. A tournament entry is not one: a
 * round's play is a play like any other, under an allowance or a signed approval. An invitation
 * to test is not one either: only the player's acceptance is.
 */
export const CHARGE_GRANTS = {
  allowance: {
    description:
      "the player's daily allowance for a game (PUT /player/allowances/{gameId}; a revocation " +
      'is an allowance of 0)',
    from: ['player_session'],
  },
  login_allowance: {
    description:
      'a daily allowance granted with the approval of a CLI login that names its game ' +
      '(dailyLimit on POST {auth}/cli/{requestorId}/approve)',
    from: ['player_session'],
  },
  accepted_invitation: {
    description:
      "the player accepted the developer's invitation to test an unpublished game, naming the " +
      'daily allowance it may charge (PUT /player/testing/{gameId}); declining or leaving takes ' +
      'it back',
    from: ['player_session'],
  },
  developer_wallet: {
    description:
      "the player is the game's developer: their wallet registered the game, so it may charge " +
      'that wallet before it is published, within the allowance that wallet gives it',
    from: ['player_session', 'player_api_key'],
  },
  signed_approval: {
    description:
      "one play, score or payment the player's wallet signed in the arcade's approval dialog " +
      '(POST /player/games/{gameId}/plays, …/scores, …/purchases)',
    from: ['player_signature'],
  },
  chain_lock: {
    description:
      "a play the player's own wallet locked in the vault; a lock from any other wallet opens " +
      'no play and is refunded (decidePlayLock: wrong_wallet)',
    from: ['player_chain_transaction'],
  },
  default_allowance: {
    description:
      "the operator's daily allowance for players who chose none (--default-allowance, 0 by " +
      'default); the operator is trusted with everything',
    from: ['operator'],
  },
} as const satisfies Record<string, GrantRule>;

export type ChargeGrant = keyof typeof CHARGE_GRANTS;

/** The credentials a player presents as themself. */
export type PlayerCredential = Exclude<ConsentCredential, 'operator'>;

/** Who presents a grant: a player with one of their credentials, or someone who is not them. */
export type ConsentActor =
  | { readonly kind: 'player'; readonly playerId: string; readonly credential: PlayerCredential }
  | { readonly kind: 'operator' }
  | { readonly kind: 'developer'; readonly developerId: string }
  | { readonly kind: 'game_server'; readonly gameId: string };

/** The player, as the credential they presented proves them. */
export function playerActor(playerId: string, credential: PlayerCredential): ConsentActor {
  return { kind: 'player', playerId, credential };
}

/** A grant as a service is about to record it: whose it is (null: every player's) and for what. */
export interface GrantRequest {
  readonly kind: ChargeGrant;
  /** The player the grant lets the game charge; null only for the operator's default. */
  readonly playerId: string | null;
  readonly gameId: string | null;
}

/**
 * Throws `consent_requires_player` unless `actor` may give `grant`: the grant's own player with a
 * credential the grant accepts, or the operator for the operator's default. A developer, a game
 * server or another player never may.
 */
export function assertConsentFrom(grant: GrantRequest, actor: ConsentActor): void {
  const accepted: readonly ConsentCredential[] = CHARGE_GRANTS[grant.kind].from;
  const credential = actor.kind === 'player' ? actor.credential : actor.kind;
  const isGrantee =
    actor.kind === 'operator'
      ? grant.playerId === null
      : actor.kind === 'player' && actor.playerId === grant.playerId;
  if (isGrantee && (accepted as readonly string[]).includes(credential)) return;
  const whose = grant.playerId === null ? 'every player' : `player ${grant.playerId}`;
  throw new CoinopError(
    'consent_requires_player',
    `only ${grant.playerId === null ? 'the operator' : whose} can give ${grant.kind} ` +
      `(${CHARGE_GRANTS[grant.kind].description}), with ${accepted.join(' or ')}; ` +
      `${describeActor(actor)} cannot`,
    { details: { grant: grant.kind, playerId: grant.playerId, gameId: grant.gameId } },
  );
}

function describeActor(actor: ConsentActor): string {
  switch (actor.kind) {
    case 'player':
      return `player ${actor.playerId} with ${actor.credential}`;
    case 'operator':
      return 'the operator';
    case 'developer':
      return `developer ${actor.developerId}`;
    case 'game_server':
      return `the server of game ${actor.gameId}`;
  }
}

/** Where a tester invitation stands (docs/concepts/consent.md, "Testers"). */
export type InvitationState = 'invited' | 'accepted' | 'declined' | 'left';

/**
 * The player's answer to an invitation: accept, naming the daily allowance (base units) the
 * game may charge them, or decline (leaving, once accepted).
 */
export type InvitationAnswer =
  { readonly accept: true; readonly dailyUnits: bigint } | { readonly accept: false };

/**
 * The state an invitation moves to on the player's answer. Accepting makes the player a tester
 * from any state (a player who declined or left may change their mind while the invitation
 * stands); declining an accepted invitation is leaving; saying no again changes nothing.
 */
export function answeredInvitation(
  current: InvitationState,
  answer: InvitationAnswer,
): InvitationState {
  if (answer.accept) return 'accepted';
  if (current === 'accepted') return 'left';
  if (current === 'invited') return 'declined';
  return current;
}

/**
 * The player's allowance for the game after their answer, or null to leave it as it is.
 * Accepting sets the amount it names (the developer may raise prices later: the allowance is
 * what bounds a tester's day); leaving revokes it (0), so a game published later does not charge
 * a player who stopped testing it; declining a waiting invitation changes nothing.
 */
export function answeredAllowance(
  current: InvitationState,
  answer: InvitationAnswer,
): bigint | null {
  if (answer.accept) return answer.dailyUnits;
  return current === 'accepted' ? 0n : null;
}

/**
 * The player's allowance for the game after its developer removed them from its testers, or
 * null to leave it as it is. On an unpublished game an accepted tester's allowance is revoked
 * (0), as leaving revokes it: the game no longer reaches them, and a limit they can no longer use
 * must not lie in wait to charge them once the game is published. On a published game it stays:
 * the game reaches them as it reaches every player, and the limit is theirs to change.
 */
export function removedAllowance(current: InvitationState, published: boolean): bigint | null {
  return current === 'accepted' && !published ? 0n : null;
}

/** Only an accepted invitation is consent: the others let the game charge the player nothing. */
export function isTester(state: InvitationState): boolean {
  return state === 'accepted';
}
