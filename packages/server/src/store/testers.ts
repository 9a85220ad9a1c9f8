import type { InvitationState } from '@coinop/core';
import type { Queryable } from './db.js';

/**
 * Testers as stored (docs/concepts/consent.md, "Testers"): the developer invites a wallet to test
 * an unpublished game, and the player with that wallet accepts, declines or leaves. Only an
 * accepted invitation makes the wallet an insider the game may charge.
 */

/**
 * Whether the wallet `wallet` is an insider of game `game` whose developer row is `developer`
 * (SQL aliases or expressions): the developer's own wallet, or a tester who accepted. The one
 * place this is written: the play statements (open-plays.ts) and the reads (consent.ts) use it.
 */
export function insiderSql(game: string, developer: string, wallet: string): string {
  return `(${wallet} = ${developer}.wallet OR EXISTS (
            SELECT 1 FROM game_testers gt
            WHERE gt.game_id = ${game}.id AND gt.wallet = ${wallet} AND gt.state = 'accepted'))`;
}

/** A wallet the developer invited to test a game, and where the invitation stands. */
export interface TesterRecord {
  readonly gameId: string;
  readonly wallet: string;
  readonly state: InvitationState;
  readonly invitedAt: Date;
  /** When the player last answered; null while the invitation waits. */
  readonly answeredAt: Date | null;
}

interface TesterRow {
  game_id: string;
  wallet: string;
  state: InvitationState;
  invited_at: Date;
  answered_at: Date | null;
}

const TESTER_COLUMNS = 'game_id, wallet, state, invited_at, answered_at';

const toTester = (r: TesterRow): TesterRecord => ({
  gameId: r.game_id,
  wallet: r.wallet,
  state: r.state,
  invitedAt: r.invited_at,
  answeredAt: r.answered_at,
});

/**
 * Invites the wallet to test the game. An invitation that exists stays as it is, whatever its
 * state: inviting again neither repeats it nor overrules the player's answer.
 */
export async function inviteTester(
  q: Queryable,
  gameId: string,
  wallet: string,
  now: Date,
): Promise<TesterRecord> {
  await q.query(
    `INSERT INTO game_testers (game_id, wallet, state, invited_at) VALUES ($1, $2, 'invited', $3)
     ON CONFLICT (game_id, wallet) DO NOTHING`,
    [gameId, wallet, now],
  );
  const found = await findTester(q, gameId, wallet);
  if (!found) throw new TypeError(`invitation of ${wallet} to game ${gameId} was not stored`);
  return found;
}

/** Withdraws the invitation, or removes the tester; false when the wallet had none. */
export async function removeTester(q: Queryable, gameId: string, wallet: string): Promise<boolean> {
  const rows = await q.query(
    'DELETE FROM game_testers WHERE game_id = $1 AND wallet = $2 RETURNING wallet',
    [gameId, wallet],
  );
  return rows.length > 0;
}

/** The game's invited wallets, in the order they were invited. */
export async function listTesters(q: Queryable, gameId: string): Promise<TesterRecord[]> {
  const rows = await q.query<TesterRow>(
    `SELECT ${TESTER_COLUMNS} FROM game_testers WHERE game_id = $1 ORDER BY invited_at, wallet`,
    [gameId],
  );
  return rows.map(toTester);
}

/** The wallet's invitation to the game; `forUpdate` locks it for an answer. */
export async function findTester(
  q: Queryable,
  gameId: string,
  wallet: string,
  forUpdate = false,
): Promise<TesterRecord | null> {
  const rows = await q.query<TesterRow>(
    `SELECT ${TESTER_COLUMNS} FROM game_testers WHERE game_id = $1 AND wallet = $2
     ${forUpdate ? 'FOR UPDATE' : ''}`,
    [gameId, wallet],
  );
  return rows[0] ? toTester(rows[0]) : null;
}

/**
 * Records the player's answer: the invitation's new state, answered now (a state it already has
 * keeps the first answer's date). Null when there is no such invitation.
 */
export async function answerInvitation(
  q: Queryable,
  input: { gameId: string; wallet: string; state: Exclude<InvitationState, 'invited'>; now: Date },
): Promise<TesterRecord | null> {
  const rows = await q.query<TesterRow>(
    `UPDATE game_testers
     SET answered_at = CASE WHEN state = $3 THEN answered_at ELSE $4 END, state = $3
     WHERE game_id = $1 AND wallet = $2
     RETURNING ${TESTER_COLUMNS}`,
    [input.gameId, input.wallet, input.state, input.now],
  );
  return rows[0] ? toTester(rows[0]) : null;
}

/** An invitation as its player sees it: the game, who invited them, and where it stands. */
export interface InvitationRecord extends TesterRecord {
  readonly gameName: string;
  readonly published: boolean;
  readonly developerWallet: string;
  /** The name of the developer's wallet as a player of the arcade; null when it never signed in. */
  readonly developerName: string | null;
  /**
   * The most one play of the game costs now: its highest tier still offered, or an open round's
   * entry fee if higher. Null when it has no board.
   */
  readonly highestPlayCostUnits: bigint | null;
  /** The daily allowance the player chose for the game (0 once revoked); null: none chosen. */
  readonly dailyUnits: bigint | null;
}

const INVITATION_SELECT = `SELECT gt.game_id, gt.wallet, gt.state, gt.invited_at, gt.answered_at,
    g.name AS game_name, g.published_at IS NOT NULL AS published,
    d.wallet AS developer_wallet, dp.name AS developer_name,
    (SELECT max(l.cost_units) FROM leaderboards l LEFT JOIN tournament_rounds r ON r.id = l.id
     WHERE l.game_id = g.id AND l.retired_at IS NULL AND (r.id IS NULL OR r.status <> 'closed')
    )::text AS highest_play_cost_units,
    (SELECT al.daily_units FROM allowances al JOIN players tp ON tp.id = al.player_id
     WHERE tp.wallet = gt.wallet AND al.game_id = gt.game_id)::text AS daily_units
  FROM game_testers gt JOIN games g ON g.id = gt.game_id
    JOIN developers d ON d.id = g.developer_id
    LEFT JOIN players dp ON dp.wallet = d.wallet`;

type InvitationRow = TesterRow & {
  game_name: string;
  published: boolean;
  developer_wallet: string;
  developer_name: string | null;
  highest_play_cost_units: string | null;
  daily_units: string | null;
};

const toInvitation = (r: InvitationRow): InvitationRecord => ({
  ...toTester(r),
  gameName: r.game_name,
  published: r.published,
  developerWallet: r.developer_wallet,
  developerName: r.developer_name,
  highestPlayCostUnits:
    r.highest_play_cost_units === null ? null : BigInt(r.highest_play_cost_units),
  dailyUnits: r.daily_units === null ? null : BigInt(r.daily_units),
});

/** Every invitation of the wallet: the waiting ones first, then the newest. */
export async function invitationsOf(q: Queryable, wallet: string): Promise<InvitationRecord[]> {
  const rows = await q.query<InvitationRow>(
    `${INVITATION_SELECT} WHERE gt.wallet = $1
     ORDER BY gt.state = 'invited' DESC, gt.invited_at DESC, gt.game_id`,
    [wallet],
  );
  return rows.map(toInvitation);
}

export async function findInvitation(
  q: Queryable,
  gameId: string,
  wallet: string,
): Promise<InvitationRecord | null> {
  const rows = await q.query<InvitationRow>(
    `${INVITATION_SELECT} WHERE gt.game_id = $1 AND gt.wallet = $2`,
    [gameId, wallet],
  );
  return rows[0] ? toInvitation(rows[0]) : null;
}
