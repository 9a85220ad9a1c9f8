/**
 * Players' public faces (docs/concepts/profiles.md): the name and avatar a player chooses
 * (`/player/me`, `/player/me/avatar`), the public player page (`/catalog/players/{playerId}`) and
 * the operator's reset (`/admin/players/{player}/reset-profile`).
 */

/**
 * A player's name and picture as everyone sees them.
 *
 * @example
 * ```ts
 * import type { PlayerIdentity } from '@coinop/protocol';
 * const label = (p: PlayerIdentity) => (p.nameChosen ? p.name : `${p.name} (no name yet)`);
 * ```
 */
export interface PlayerIdentity {
  readonly playerId: string;
  readonly name: string;
  /** Avatar image URL: the uploaded picture, or the generated identicon. */
  readonly avatar: string;
  /** Whether the player chose the name (false: the arcade's default, from the wallet). */
  readonly nameChosen: boolean;
  /** Whether the avatar is an uploaded picture (false: the generated identicon). */
  readonly avatarUploaded: boolean;
}

/**
 * A player's best on one tier of a published game, as the public player page shows it.
 *
 * @example
 * ```ts
 * import type { PublicBoardStanding } from '@coinop/protocol';
 * const line = (s: PublicBoardStanding) => `#${s.rank} on ${s.gameName} ${s.leaderboardName}`;
 * ```
 */
export interface PublicBoardStanding {
  readonly gameId: string;
  readonly gameName: string;
  /** Shown after the score (`ms`); empty for none. */
  readonly scoreUnit: string;
  readonly leaderboardId: string;
  readonly leaderboardName: string;
  readonly score: number;
  /** 1 for the best on the board. */
  readonly rank: number;
}

/**
 * A place the player won in a closed tournament round of a published game.
 *
 * @example
 * ```ts
 * import type { PublicTournamentResult } from '@coinop/protocol';
 * const line = (r: PublicTournamentResult) => `${r.tournamentName}: ${r.place}, ${r.prize} HST`;
 * ```
 */
export interface PublicTournamentResult {
  readonly tournamentId: string;
  readonly tournamentName: string;
  readonly gameId: string;
  readonly gameName: string;
  /** Shown after the score (`ms`); empty for none. */
  readonly scoreUnit: string;
  readonly roundNumber: number;
  readonly place: number;
  readonly score: number;
  /** The prize, HST as an exact decimal string. */
  readonly prize: string;
  /** When the round closed (ISO 8601). */
  readonly closedAt: string;
}

/**
 * The public player page (`GET /catalog/players/{playerId}`): nothing private (no wallet, no
 * balance), and nothing of unpublished games.
 *
 * @example
 * ```ts
 * import type { PublicPlayerProfile } from '@coinop/protocol';
 * const best = (p: PublicPlayerProfile) => Math.min(...p.boards.map((b) => b.rank));
 * ```
 */
export interface PublicPlayerProfile extends PlayerIdentity {
  /** When the player joined the arcade (ISO 8601). */
  readonly memberSince: string;
  /** Their best on each tier of a published game they scored on, best rank first. */
  readonly boards: PublicBoardStanding[];
  /** Their prizes in closed tournament rounds, newest first (at most 50). */
  readonly tournaments: PublicTournamentResult[];
}

/**
 * What the operator's reset did (`POST /admin/players/{player}/reset-profile`).
 *
 * @example
 * ```ts
 * import type { ProfileReset } from '@coinop/protocol';
 * const said = (r: ProfileReset) => `${r.previousName} is now ${r.name}: ${r.reason}`;
 * ```
 */
export interface ProfileReset extends PlayerIdentity {
  readonly previousName: string;
  readonly reason: string;
  /** When (ISO 8601). */
  readonly resetAt: string;
}
