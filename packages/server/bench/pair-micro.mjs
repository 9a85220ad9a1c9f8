// Micro-benchmarks of two pieces of a score batch's own work (issue 32), on the compiled code:
// the ledger's decision for one score's settlement (`createTransfers`, 13 transfers over 10
// accounts) and turning a batch's instants into statement parameters (44 rows sharing 4
// instants, as the store's `columns` gives them, beside node-postgres formatting each Date itself).
//   node packages/server/bench/pair-micro.mjs
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { createTransfers } from '@coinop/core';
import { columns } from '../dist/store/params.js';

const require = createRequire(import.meta.url);
const pgUtils = require('pg/lib/utils.js');

/** Microseconds per call of `fn`, after warm-up rounds. */
function perCall(fn, calls = 50_000) {
  let sink = 0;
  let us = 0;
  for (let round = 0; round < 4; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) sink += fn() ? 1 : 0;
    us = Number(process.hrtime.bigint() - start) / calls / 1000;
  }
  if (sink < 0) console.log(sink);
  return us.toFixed(2);
}

const account = () => ({
  id: randomUUID(),
  kind: 'player',
  debitsPending: 0n,
  debitsPosted: 0n,
  creditsPending: 5_000_000_000n,
  creditsPosted: 900_000_000_000n,
});
const accounts = Array.from({ length: 10 }, account);
const lock = {
  id: randomUUID(),
  kind: 'pending',
  debitAccountId: accounts[0].id,
  creditAccountId: accounts[1].id,
  amount: 100_000_000n,
  pendingId: null,
  reason: 'play_lock',
  playId: null,
};
const settlement = [
  { ...lock, id: randomUUID(), kind: 'post_pending', amount: 0n, pendingId: lock.id },
  ...Array.from({ length: 12 }, (_, i) => ({
    id: randomUUID(),
    kind: 'posted',
    debitAccountId: accounts[1].id,
    creditAccountId: accounts[2 + (i % 8)].id,
    amount: 1_000_000n + BigInt(i),
    pendingId: null,
    reason: 'payout',
    playId: null,
  })),
];
const snapshot = {
  accounts: new Map(accounts.map((a) => [a.id, a])),
  existing: new Map(),
  pendings: new Map([[lock.id, lock]]),
  resolvedPendings: new Map(),
};
const instants = Array.from({ length: 4 }, (_, i) => new Date(Date.now() + i));
const rowTimes = Array.from({ length: 44 }, (_, i) => instants[i % 4]);

console.log(
  JSON.stringify({
    createTransfersUs: perCall(() => createTransfers(settlement, snapshot).ok),
    timesAsDatesUs: perCall(() => pgUtils.prepareValue(rowTimes).length > 0),
    timesAsColumnsUs: perCall(
      () => pgUtils.prepareValue(columns(rowTimes, [(t) => t])[0]).length > 0,
    ),
  }),
);
