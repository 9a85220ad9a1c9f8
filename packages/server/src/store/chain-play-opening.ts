import type { StoredPlay } from './plays.js';
import { keyParams, type VaultKey } from './chain-checkpoints.js';
import { boardOrder } from './board-order.js';
import type { Queryable } from './db.js';

/**
 * How a play locked on chain opens (docs/concepts/chain.md): the arcade's request that a player
 * lock a tier's cost, what deciding a confirmed lock reads of the request's player, tier and game,
 * and the play a lock opens.
 */

/** Records the arcade's request that a player lock a tier's cost under `playId`. */
export async function insertPlayRequest(
  q: Queryable,
  key: VaultKey,
  request: {
    playId: string;
    playerId: string;
    gameId: string;
    leaderboardId: string;
    amountUnits: bigint;
    lockBy: Date;
  },
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO chain_play_locks (play_id, chain_id, vault_address, player_id, game_id,
                                   leaderboard_id, amount_units, requested_at, lock_by, state,
                                   updated_at)
     VALUES ($3, $1, $2, $4, $5, $6, $7, $8, $9, 'requested', $8)`,
    [
      ...keyParams(key),
      request.playId,
      request.playerId,
      request.gameId,
      request.leaderboardId,
      request.amountUnits,
      now,
      request.lockBy,
    ],
  );
}

/** What deciding a requested lock needs: the request's player, tier and game as they are now. */
export interface LockRequestView {
  readonly playId: string;
  readonly arcadeId: string;
  readonly developerId: string;
  readonly playerWallet: string | null;
  readonly tierCostUnits: bigint | null;
  readonly leadersMax: number;
  readonly gamePlayable: boolean;
}

export async function lockRequestViews(
  tx: Queryable,
  playIds: readonly string[],
): Promise<Map<string, LockRequestView>> {
  const rows = await tx.query<{
    play_id: string;
    arcade_id: string;
    developer_id: string;
    wallet: string | null;
    cost_units: bigint | number;
    retired: boolean;
    leaders_max: number;
    playable: boolean;
  }>(
    `SELECT l.play_id, g.arcade_id, g.developer_id, pl.wallet, lb.cost_units,
            lb.retired_at IS NOT NULL AS retired, lb.leaders_max,
            g.published_at IS NOT NULL AND g.suspended_at IS NULL AS playable
     FROM chain_play_locks l
     JOIN players pl ON pl.id = l.player_id
     JOIN leaderboards lb ON lb.id = l.leaderboard_id
     JOIN games g ON g.id = l.game_id
     WHERE l.play_id = ANY($1::uuid[])`,
    [playIds],
  );
  return new Map(
    rows.map((r) => [
      r.play_id,
      {
        playId: r.play_id,
        arcadeId: r.arcade_id,
        developerId: r.developer_id,
        playerWallet: r.wallet,
        tierCostUnits: r.retired ? null : BigInt(r.cost_units),
        leadersMax: r.leaders_max,
        gamePlayable: r.playable,
      },
    ]),
  );
}

/**
 * Inserts the play a confirmed lock opens, with the board's leaders of this moment (they share
 * its payout, as for any play). Its lock transfer must exist already.
 */
export async function insertChainPlay(
  tx: Queryable,
  play: StoredPlay,
  leadersMax: number,
): Promise<void> {
  await tx.query(
    `INSERT INTO plays (id, arcade_id, game_id, developer_id, leaderboard_id, player_id,
                        cost_units, lock_transfer_id, vault_account_id, leader_player_ids, status,
                        idempotency_key, request_hash, expires_at, created_at, updated_at, seed,
                        opened_by)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
             ARRAY(SELECT player_id FROM leaders WHERE leaderboard_id = $5
                   ORDER BY ${boardOrder()} LIMIT $10),
             'open', NULL, NULL, $11, $12, $12, $13, $14)`,
    [
      play.id,
      play.arcadeId,
      play.gameId,
      play.developerId,
      play.leaderboardId,
      play.playerId,
      play.costUnits,
      play.lockTransferId,
      play.vaultAccountId,
      leadersMax,
      play.expiresAt,
      play.createdAt,
      play.seed,
      play.openedBy,
    ],
  );
}
