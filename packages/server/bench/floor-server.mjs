// The floor of a play+score pair on this machine (`floor.mjs`): a bare Fastify with the loop's two
// routes, JSON bodies and a bearer header, each request answered after a group-committed round
// trip to Postgres and a wait of FLOOR_WAIT_MS (so the pair rate can match a measured run's). No
// hooks, no services, no ledger: what an API built like coinop pays to take two requests and
// wait on a database.
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
// As coinop does (group commit): the requests that arrive together share one statement, with
// up to three statements in flight. FLOOR_BATCH=0 sends one statement per request instead.
const batched = process.env['FLOOR_BATCH'] !== '0';
const IN_FLIGHT = 3;
const queue = [];
let inFlight = 0;
let gathering = false;
const statement = (ids) =>
  pool
    .query({
      name: 'floor',
      text: 'SELECT unnest($1::uuid[]) AS id',
      values: [ids],
    })
    .then((result) =>
      // The wait is the server's own, not pg_sleep's: on this VM a Postgres sleep of a few
      // milliseconds takes tens.
      waitSeconds > 0
        ? new Promise((resolve) => setTimeout(() => resolve(result), waitSeconds * 1000))
        : result,
    );
function flush() {
  gathering = false;
  if (queue.length === 0 || inFlight >= IN_FLIGHT) return;
  const batch = queue.splice(0, queue.length);
  inFlight += 1;
  statement(batch.map((w) => w.id))
    .then(
      () => batch.forEach((w) => w.resolve()),
      (error) => batch.forEach((w) => w.reject(error)),
    )
    .finally(() => {
      inFlight -= 1;
      gather();
    });
  gather();
}
function gather() {
  if (gathering || queue.length === 0 || inFlight >= IN_FLIGHT) return;
  gathering = true;
  setImmediate(flush);
}
const roundTrip = (id) =>
  batched
    ? new Promise((resolve, reject) => {
        queue.push({ id, resolve, reject });
        gather();
      })
    : statement([id]);

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
