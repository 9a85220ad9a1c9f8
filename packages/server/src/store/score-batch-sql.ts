import { boardOrder } from './board-order.js';
import { transferBatchSql } from './ledger.js';
import { PLAY_COLUMNS_OF_P } from './plays.js';

/** The statements of a batch of scores: the one read (`readScoreBatch`) and the one write (`writeScores`). */

const SCORES_LEDGER = transferBatchSql(34);

/** The statement's ledger parameters ($34 on): the transfers and the summed balance changes. */
export const SCORES_LEDGER_PARAMS = SCORES_LEDGER.params.bind(SCORES_LEDGER);

/**
 * The replays a batch keeps ($61, $62: score ids and replays), written by the same statement as
 * their scores. Only a batch with a replay carries this part: one without runs the statement it
 * ran before replays were kept (`WRITE_SCORES_SQL`).
 */
const REPLAYS_CTE = `replays AS (
     INSERT INTO score_replays (score_id, replay)
     SELECT * FROM unnest($61::uuid[], $62::text[])
   ), `;

/** The statement of `writeScores` (each text is fixed: one prepared statement each). */
const writeScoresSql = (replays: string) => `WITH board AS (
     UPDATE leaderboards lb SET score_version = v.next, write_seq = lb.write_seq + 1
     FROM unnest($52::uuid[], $53::bigint[], $54::bigint[]) AS v(id, expected, next)
     WHERE lb.id = v.id AND (v.expected IS NULL OR lb.score_version = v.expected)
     RETURNING lb.id, lb.write_seq
   ), first_best AS (
     INSERT INTO leaders (leaderboard_id, player_id, score, rank_key, score_id, achieved_at, seq)
     SELECT d.*, b.write_seq
     FROM unnest($1::uuid[], $2::uuid[], $3::float8[], $4::bigint[], $5::uuid[],
                 $6::timestamptz[]) AS d(board, player, score, rank_key, score_id, achieved_at)
     JOIN board b ON b.id = d.board
     ON CONFLICT (leaderboard_id, player_id) DO NOTHING
     RETURNING 1
   ), moved_best AS (
     UPDATE leaders l SET score = d.score, rank_key = d.rank_key, score_id = d.score_id,
                          achieved_at = d.achieved_at, seq = b.write_seq
     FROM unnest($7::uuid[], $8::uuid[], $9::float8[], $10::bigint[], $11::uuid[],
                 $12::timestamptz[], $13::uuid[])
       AS d(board, player, score, rank_key, score_id, achieved_at, replaces)
     JOIN board b ON b.id = d.board
     WHERE l.leaderboard_id = d.board AND l.player_id = d.player AND l.score_id = d.replaces
     RETURNING 1
   ), moves AS (
     -- Every best written is a move a board walk may need; a first best comes from nowhere.
     INSERT INTO best_moves (leaderboard_id, seq, player_id, from_rank_key, from_achieved_at,
                             moved_at)
     SELECT d.board, b.write_seq, d.player, d.from_key, d.from_at, d.moved_at
     FROM unnest($55::uuid[], $56::uuid[], $57::bigint[], $58::timestamptz[], $59::timestamptz[])
       AS d(board, player, from_key, from_at, moved_at)
     JOIN board b ON b.id = d.board
   ), gained AS (
     INSERT INTO rank_buckets (leaderboard_id, level, bucket, players)
     SELECT * FROM unnest($14::uuid[], $15::smallint[], $16::bigint[], $17::bigint[])
     ON CONFLICT (leaderboard_id, level, bucket) DO UPDATE
       SET players = rank_buckets.players + excluded.players
     RETURNING 1
   ), lost AS (
     UPDATE rank_buckets rb SET players = rb.players + d.delta
     FROM unnest($18::uuid[], $19::smallint[], $20::bigint[], $21::bigint[])
       AS d(board, level, bucket, delta)
     WHERE rb.leaderboard_id = d.board AND rb.level = d.level AND rb.bucket = d.bucket
     RETURNING 1
   ), score AS (
     INSERT INTO scores (id, play_id, leaderboard_id, player_id, score, leader_rank, is_winner,
                         idempotency_key, request_hash, created_at)
     SELECT * FROM unnest($22::uuid[], $23::uuid[], $24::uuid[], $25::uuid[], $26::float8[],
                          $27::int[], $28::boolean[], $29::text[], $30::text[],
                          $31::timestamptz[])
     RETURNING 1
   ), played AS (
     UPDATE plays p SET status = 'scored', updated_at = u.at, payouts_release_at = u.release_at
     FROM unnest($32::uuid[], $33::timestamptz[], $60::timestamptz[]) AS u(id, at, release_at)
     WHERE p.id = u.id AND p.status = 'open'
     RETURNING 1
   ), ${replays}${SCORES_LEDGER.ctes}
   SELECT CASE WHEN c.played <> $49 THEN coinop_write_conflict('a play is no longer open')
               WHEN c.first_best <> $50 OR c.moved_best <> $51
                 THEN coinop_write_conflict('a best changed')
               WHEN c.boards <> cardinality($52::uuid[])
                 THEN coinop_write_conflict('a board changed')
               ELSE coinop_missing_account() END
   FROM (SELECT (SELECT count(*) FROM played) AS played,
                (SELECT count(*) FROM first_best) AS first_best,
                (SELECT count(*) FROM moved_best) AS moved_best,
                (SELECT count(*) FROM board) AS boards) c
   WHERE c.played <> $49 OR c.first_best <> $50 OR c.moved_best <> $51
     OR c.boards <> cardinality($52::uuid[]) OR ${SCORES_LEDGER.accountMissing}`;

/** A batch of scores none of which carries a replay: the statement as before replays were kept. */
export const WRITE_SCORES_SQL = writeScoresSql('');
/** A batch with at least one replay: the same, keeping the replays in `score_replays`. */
export const WRITE_SCORES_WITH_REPLAYS_SQL = writeScoresSql(REPLAYS_CTE);

/** The statement of `readScoreBatch` (its text is fixed: one prepared statement). */
export const READ_SCORE_BATCH_SQL = `WITH p AS MATERIALIZED (
       SELECT u.i, ${PLAY_COLUMNS_OF_P}, pl.account_id AS player_account_id,
              pl.name AS player_name, pl.avatar_url AS player_avatar_url,
              ARRAY(SELECT account_id FROM players WHERE id = ANY(p.leader_player_ids))
                AS leader_account_ids
       FROM unnest($1::uuid[], $2::uuid[]) WITH ORDINALITY AS u(id, game_id, i)
       CROSS JOIN LATERAL (SELECT * FROM plays WHERE id = u.id AND (game_id = u.game_id) IS TRUE
                           LIMIT 1) p
       CROSS JOIN LATERAL (SELECT account_id, name, avatar_url FROM players
                           WHERE id = p.player_id LIMIT 1) pl
     ), counts AS (
       SELECT r.i, sum(s.n)::bigint AS n
       FROM unnest($3::int[], $4::smallint[], $5::bigint[], $6::bigint[]) AS r(i, level, after, up_to)
       JOIN p ON p.i = r.i
       CROSS JOIN LATERAL (
         SELECT sum(rb.players) AS n FROM rank_buckets rb
         WHERE rb.leaderboard_id = p.leaderboard_id AND rb.level = r.level AND rb.bucket > r.after
           AND rb.bucket <= r.up_to) s
       GROUP BY r.i
     ), tops AS (
       SELECT json_agg(t) AS tops FROM (
         SELECT l.leaderboard_id, l.player_id, l.score, l.rank_key::text AS rank_key,
                l.achieved_at, pl.name, pl.avatar_url
         FROM (SELECT lb.id AS board, lb.leaders_max + 1 AS lim
               FROM (SELECT DISTINCT leaderboard_id FROM p) b
               JOIN leaderboards lb ON lb.id = b.leaderboard_id) bd
         CROSS JOIN LATERAL (SELECT * FROM leaders WHERE leaderboard_id = bd.board
                             ORDER BY ${boardOrder()} LIMIT bd.lim) l
         CROSS JOIN LATERAL (SELECT name, avatar_url FROM players
                             WHERE id = l.player_id LIMIT 1) pl
         ORDER BY l.leaderboard_id, ${boardOrder('l')}) t
     )
     SELECT p.*, b.rank_key AS best_rank_key, b.achieved_at AS best_achieved_at,
            b.score_id AS best_score_id, c.n AS at_or_above,
            CASE WHEN p.i = (SELECT min(i) FROM p) THEN (SELECT tops FROM tops) END AS tops
     FROM p
     LEFT JOIN LATERAL (SELECT rank_key, achieved_at, score_id FROM leaders
                        WHERE leaderboard_id = p.leaderboard_id AND player_id = p.player_id
                        LIMIT 1) b ON true
     LEFT JOIN counts c ON c.i = p.i
     ORDER BY p.i`;
