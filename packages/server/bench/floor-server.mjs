// The floor of a play+score pair on this machine (`floor.mjs`): a bare Fastify with the loop's two
// routes, JSON bodies and a bearer header, each request answered after one round trip to
// Postgres that waits FLOOR_WAIT_MS there (so the pair rate can match a measured run's). No
// hooks, no services, no ledger: what any API pays to take two requests and wait on a database.
//
//   DATABASE_URL=… FLOOR_WAIT_MS=4 node floor-server.mjs   (prints "listening <url>")
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const waitSeconds = Number(process.env['FLOOR_WAIT_MS'] ?? 0) / 1000;
const pool = new pg.Pool({ connectionString: process.env['DATABASE_URL'], max: 60 });
const app = Fastify({ logger: false });
const body = {
  type: 'object',
  properties: {
    playerId: { type: 'string' },
    leaderboardId: { type: 'string' },
    playId: { type: 'string' },
    score: { type: 'number' },
  },
};
const response = {
  200: { type: 'object', properties: { id: { type: 'string' }, score: { type: 'number' } } },
};
const roundTrip = (id) =>
  pool.query({
    name: 'floor',
    text: 'SELECT pg_sleep($1), $2::uuid AS id',
    values: [waitSeconds, id],
  });

app.post('/arcades/:arcadeId/games/:gameId/play', { schema: { body, response } }, async () => {
  const id = randomUUID();
  await roundTrip(id);
  return { id };
});
app.post('/arcades/:arcadeId/games/:gameId/score', { schema: { body, response } }, async (req) => {
  await roundTrip(req.body.playId);
  return { id: req.body.playId, score: req.body.score };
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${url}`);
