// Turns the bench's results into the printed tables and the target verdicts.

/** Issue 14's targets for `coinop serve` as shipped, on the 2-vCPU bench machine. */
export const SERVE_TARGETS = {
  pairsPerSecond: { postgres: { 10: 2600, 50: 3800 }, pglite: { 10: 1500 } },
  pairP99Ms: { connections: 10, ms: 15 },
  developergamesVsBare: { connections: 50, ratio: 0.8 },
};

export const TARGETS = {
  pairsPerSecond: { postgres: 1500, pglite: 800 },
  developergamesRps: 10_000,
  rankP99Ms: 2,
  boardReadP99Ms: 5,
};

/** `coinop serve` as shipped (serve-bench.mjs): one row per store, scenario and connections. */
export function serveTable(rows) {
  const header = [
    'scenario',
    'store',
    'conns',
    'pairs/s',
    'req/s',
    'p50 ms',
    'p99 ms',
    'non-2xx',
    'CPU µs/pair serve+pg+gen',
  ];
  const lines = rows.map((r) => [
    r.scenario,
    r.store,
    String(r.connections),
    r.pairsPerSecond === undefined ? '' : int(r.pairsPerSecond),
    r.rps === undefined ? '' : int(r.rps),
    ms(r.p50),
    ms(r.p99),
    String(r.non2xx ?? r.nonOk),
    r.cpuUsPerPair
      ? [r.cpuUsPerPair.serve, r.cpuUsPerPair.postgres ?? '–', r.cpuUsPerPair.loadgen].join('+')
      : '',
  ]);
  return table(header, lines);
}

/**
 * Issue 14's targets against `coinop serve` as shipped. A request's p99 stands in for a pair's
 * (serve-bench times requests); the read is set beside the bare route of the in-process part
 * when that ran.
 */
export function serveVerdicts(rows, bare) {
  const out = [];
  for (const r of rows.filter((x) => x.scenario === 'play+score')) {
    const target = SERVE_TARGETS.pairsPerSecond[r.store]?.[r.connections];
    if (target !== undefined) {
      out.push({
        target: `coinop serve play+score ≥ ${int(target)} pairs/s, ${r.store}, ${r.connections} conns`,
        measured: `${int(r.pairsPerSecond)} pairs/s`,
        met: r.pairsPerSecond >= target && r.nonOk === 0,
      });
    }
    if (r.store === 'postgres' && r.connections === SERVE_TARGETS.pairP99Ms.connections) {
      out.push({
        target: `coinop serve request p99 ≤ ${SERVE_TARGETS.pairP99Ms.ms} ms, postgres, ${r.connections} conns`,
        measured: `p99 ${ms(r.p99)} ms`,
        met: r.p99 <= SERVE_TARGETS.pairP99Ms.ms,
      });
    }
  }
  const { connections, ratio } = SERVE_TARGETS.developergamesVsBare;
  const base = bare.find((b) => b.connections === connections);
  for (const r of rows.filter(
    (x) => x.scenario === 'developergames' && x.connections === connections,
  )) {
    if (!base) continue;
    out.push({
      target: `coinop serve developergames ≥ ${ratio}× bare Fastify, ${r.store}, ${connections} conns`,
      measured: `${(r.rps / base.rps).toFixed(2)}× (${int(r.rps)} vs ${int(base.rps)} req/s)`,
      met: r.rps >= ratio * base.rps,
    });
  }
  return out;
}

/** The HTTP table: one row per measurement, each beside the bare route at its connections. */
export function httpTable(rows, bare) {
  const header = [
    'scenario',
    'store',
    'conns',
    'pairs/s',
    'req/s',
    'p50 ms',
    'p99 ms',
    'vs bare',
    'non-2xx',
    'errors',
  ];
  const lines = rows.map((r) => {
    const base = bare.find((b) => b.connections === r.connections);
    return [
      r.scenario,
      r.store,
      String(r.connections),
      r.pairsPerSecond === undefined ? '' : int(r.pairsPerSecond),
      int(r.rps),
      ms(r.latency.p50),
      ms(r.latency.p99),
      base ? `${(r.rps / base.rps).toFixed(3)}×` : '',
      String(r.non2xx),
      String(r.errors),
    ];
  });
  return table(header, lines);
}

/** Play and score apart, and where the time went, for each play+score row. */
export function loopDetailTable(rows) {
  const header = [
    'scenario',
    'store',
    'conns',
    'play p50/p99',
    'score p50/p99',
    'stmts/pair',
    'txns/pair',
    'CPU % srv/pg/gen/other',
  ];
  const lines = rows
    .filter((r) => r.pairs !== undefined)
    .map((r) => [
      r.scenario,
      r.store,
      String(r.connections),
      `${ms(r.play.p50)} / ${ms(r.play.p99)}`,
      `${ms(r.score.p50)} / ${ms(r.score.p99)}`,
      r.pairs ? (r.statements / r.pairs).toFixed(1) : '',
      r.pairs ? (r.transactions / r.pairs).toFixed(2) : '',
      cpuText(r.cpu),
    ]);
  return table(header, lines);
}

export function readCpuTable(rows) {
  const header = ['scenario', 'store', 'conns', 'CPU % srv/pg/gen/other', 'stmts/req'];
  const lines = rows
    .filter((r) => r.pairs === undefined)
    .map((r) => [
      r.scenario,
      r.store,
      String(r.connections),
      cpuText(r.cpu),
      r.ok ? ((r.statements ?? 0) / r.ok).toFixed(3) : '',
    ]);
  return table(header, lines);
}

export function rankingTable(results) {
  const header = ['store', 'rows', 'query', 'calls', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms'];
  const lines = [];
  for (const r of results) {
    for (const [label, s] of [
      ['countAtOrAbove (leaderRank)', r.countAtOrAbove],
      ['topLeaders(10)', r.topLeaders],
      ['score update (writeScores best, then rank)', r.scoreUpdate],
      ['SELECT 1 (round-trip floor)', r.selectOne],
      ['naive count(*) (for contrast)', r.naiveCount],
    ]) {
      lines.push([
        r.store,
        r.rows.toLocaleString('en'),
        label,
        String(s.n),
        ms(s.p50),
        ms(s.p90),
        ms(s.p99),
        ms(s.max),
      ]);
    }
  }
  return table(header, lines);
}

/** Closing a tournament round: the field, the close's time and its payout batch. */
export function closeTable(results) {
  return table(
    ['store', 'entrants', 'paid places', 'payout transfers', 'close s', 'balanced'],
    results.map((r) => [
      r.store,
      r.entrants.toLocaleString('en'),
      r.paidPlaces.toLocaleString('en'),
      r.payoutTransfers.toLocaleString('en'),
      r.seconds.toFixed(2),
      String(r.balanced),
    ]),
  );
}

/** Board reads at scale: a row per read and place, per store. */
export function boardReadsTable(results) {
  const header = [
    'store',
    'players',
    'read',
    'at',
    'calls',
    'p50 ms',
    'p90 ms',
    'p99 ms',
    'max ms',
  ];
  const lines = results.flatMap((r) =>
    r.rows.map((s) => [
      r.store,
      r.players.toLocaleString('en'),
      s.query,
      s.place,
      String(s.n),
      ms(s.p50),
      ms(s.p90),
      ms(s.p99),
      ms(s.max),
    ]),
  );
  return table(header, lines);
}

/** Each target with its measured figure and met/missed. */
export function verdicts(rows, ranking, boards = []) {
  const out = [];
  for (const store of ['postgres', 'pglite']) {
    for (const r of rows.filter((x) => x.store === store && x.scenario === 'play+score 1 board')) {
      const target = TARGETS.pairsPerSecond[store];
      out.push({
        target: `play+score ≥ ${target} pairs/s, ${store}, ${r.connections} conns`,
        measured: `${int(r.pairsPerSecond)} pairs/s`,
        met: r.pairsPerSecond >= target && r.non2xx === 0 && r.errors === 0,
      });
    }
  }
  for (const r of rows.filter((x) => x.scenario === 'developergames read')) {
    out.push({
      target:
        `developergames ≥ ${TARGETS.developergamesRps} req/s, ` +
        `${r.store}, ${r.connections} conns`,
      measured: `${int(r.rps)} req/s`,
      met: r.rps >= TARGETS.developergamesRps && r.non2xx === 0 && r.errors === 0,
    });
  }
  for (const r of ranking) {
    for (const [label, s] of [
      ['leaderRank (countAtOrAbove)', r.countAtOrAbove],
      ['leaders list (topLeaders)', r.topLeaders],
    ]) {
      out.push({
        target:
          `${label} p99 < ${TARGETS.rankP99Ms} ms ` +
          `at ${r.rows.toLocaleString('en')} rows, ${r.store}`,
        measured: `p99 ${ms(s.p99)} ms`,
        met: s.p99 < TARGETS.rankP99Ms,
      });
    }
  }
  // Issue 18: around-me and a page of 100, p99 under 5 ms, read by read, wherever on the board.
  for (const r of boards) {
    for (const s of r.rows.filter((x) => !x.query.includes('HTTP'))) {
      out.push({
        target:
          `${s.query} at the ${s.place} p99 < ${TARGETS.boardReadP99Ms} ms ` +
          `at ${r.players.toLocaleString('en')} players, ${r.store}`,
        measured: `p99 ${ms(s.p99)} ms`,
        met: s.p99 < TARGETS.boardReadP99Ms,
      });
    }
  }
  return out;
}

export function verdictTable(list) {
  return table(
    ['target', 'measured', ''],
    list.map((v) => [v.target, v.measured, v.met ? 'met' : 'MISSED']),
  );
}

/** Mean number of bench-database backends per state, from pg_stat_activity samples. */
export function waitText(waits) {
  if (!waits || waits.samples === 0) return '';
  return Object.entries(waits.states)
    .sort((a, b) => b[1] - a[1])
    .map(([state, n]) => `${state} ${(n / waits.samples).toFixed(1)}`)
    .join(', ');
}

function cpuText(cpu) {
  if (!cpu) return 'n/a';
  return `${cpu.server}/${cpu.postgres}/${cpu.loadgen}/${cpu.other} (of ${cpu.cores * 100})`;
}

function int(n) {
  return Math.round(n).toLocaleString('en');
}

function ms(n) {
  if (n === null || n === undefined) return '–';
  return n < 10 ? n.toFixed(2) : n.toFixed(1);
}

/** A Markdown table, so the output pastes into docs/benchmarks.md as it is. */
export function table(header, lines) {
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const row = (cells) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  return [
    row(header),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...lines.map(row),
  ].join('\n');
}
