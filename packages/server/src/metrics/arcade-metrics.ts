import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CounterConfiguration,
} from 'prom-client';
import type { PoolStats } from '../store/db.js';
import { CachedSource } from './cached-source.js';

/**
 * The process's Prometheus metrics (docs/operating/metrics.md), one registry per process. What
 * the play and score path records is a counter increment or a histogram observation, never I/O;
 * what costs a query (ledger totals, the chain watcher's lag) is read when Prometheus scrapes,
 * through a source registered here, and cached for `SLOW_SOURCE_TTL_MS` (cached-source.ts).
 */

/** Request latency buckets (seconds): the play path answers in milliseconds, pages in tens. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Group-commit batch sizes, up to the largest batch (`BATCH_MAX`). */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];
/** A round's close (seconds): a few milliseconds for a small field, seconds for 100,000. */
const CLOSE_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60];
/** A payout batch's transfers: a few places, up to a top-percent table over a large field. */
const PAYOUT_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536];

/** A group commit's queue, read on scrape. */
export interface QueueSource {
  /** Jobs waiting for a batch. */
  readonly queued: number;
  /** Batches committing now. */
  readonly inFlight: number;
}

/** Ledger totals in base units (1 HST = 10^8). */
export interface LedgerTotals {
  /** HST minted into the ledger less burned: the mint account's posted debits less credits. */
  readonly mintedUnits: bigint;
  /** HST locked in pending transfers (open plays' escrow). */
  readonly pendingUnits: bigint;
}

/** The chain watcher's and the withdrawal sender's state, from the database. */
export interface ChainProgress {
  /** Blocks between the chain's head last seen and the last block read; null before a read. */
  readonly lagBlocks: number | null;
  /** Withdrawals queued and not yet sent. */
  readonly withdrawalsQueued: number;
  /** Withdrawals sent, waiting for their transaction to be mined deep enough. */
  readonly withdrawalsSent: number;
  /** No HST leaves the vault: its senders are halted (issue 27); null before the vault is read. */
  readonly halted: boolean | null;
  /**
   * When a watcher round last got the chain's head (any process's); null before. It stops moving
   * while the RPC cannot be reached, when the lag, computed from that head, stays as it was.
   */
  readonly headSeenAt: Date | null;
}

/** What a route's outcome is called in a label: its success word, or the error code. */
export type Outcome = string;

export class ArcadeMetrics {
  readonly registry = new Registry();

  readonly #requests: Histogram<'listener' | 'route' | 'method' | 'status_class'>;
  readonly #requestChildren = new Map<string, Histogram.Internal<string>>();
  readonly #serverErrors: Counter<'listener' | 'code'>;
  readonly #plays: Counter<'outcome'>;
  readonly #scores: Counter<'outcome'>;
  readonly #signIns: Counter<'flow' | 'outcome'>;
  readonly #batchSizes: Histogram<'queue'>;
  readonly #roundCloses: Histogram;
  readonly #roundPayoutTransfers: Histogram;
  readonly #roundCloseFailures: Counter;
  readonly #queues = new Map<string, QueueSource>();
  #pool: (() => PoolStats) | null = null;
  #database: { readonly isUnavailable: boolean } | null = null;
  #ledger: CachedSource<LedgerTotals> | null = null;
  #chain: CachedSource<ChainProgress> | null = null;

  constructor() {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.#requests = new Histogram({
      name: 'coinop_http_request_duration_seconds',
      help: 'Requests answered, by listener, route pattern, method and status class (2xx, 4xx, …)',
      labelNames: ['listener', 'route', 'method', 'status_class'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.#serverErrors = counter({
      name: 'coinop_http_server_errors_total',
      help:
        'Requests answered 5xx, by listener and problem code: internal_error (a bug), ' +
        'service_unavailable (the database cannot be reached), overloaded, …; none when the ' +
        'answer was not a coinop problem (the web listener forwarding another listener’s)',
      labelNames: ['listener', 'code'],
      registers,
    });
    this.#plays = counter({
      name: 'coinop_plays_opened_total',
      help: 'Plays asked to open, by outcome: opened, replayed (an idempotent retry) or the error code',
      labelNames: ['outcome'],
      registers,
    });
    this.#scores = counter({
      name: 'coinop_scores_recorded_total',
      help: 'Scores submitted, by outcome: recorded, replayed (an idempotent retry) or the error code',
      labelNames: ['outcome'],
      registers,
    });
    this.#signIns = counter({
      name: 'coinop_signins_total',
      help: 'Sign-in steps by flow (wallet, cli_login) and outcome (the step, or the error code)',
      labelNames: ['flow', 'outcome'],
      registers,
    });
    this.#batchSizes = new Histogram({
      name: 'coinop_group_commit_batch_size',
      help: 'Jobs committed together in one group-commit batch, by queue (plays, scores)',
      labelNames: ['queue'],
      buckets: BATCH_BUCKETS,
      registers,
    });
    this.#roundCloses = new Histogram({
      name: 'coinop_tournament_round_close_seconds',
      help: 'Tournament rounds closed by this process, by how long each close took',
      buckets: CLOSE_BUCKETS,
      registers,
    });
    this.#roundPayoutTransfers = new Histogram({
      name: 'coinop_tournament_round_payout_transfers',
      help: "Transfers in a closed round's payout batch (prizes and the remainder)",
      buckets: PAYOUT_BUCKETS,
      registers,
    });
    this.#roundCloseFailures = counter({
      name: 'coinop_tournament_round_close_failures_total',
      help: 'Closes of tournament rounds that failed (rolled back, retried at the next look)',
      registers,
    });
    this.#registerSourceGauges(registers);
  }

  /**
   * The gauges read when Prometheus scrapes, from the sources registered later (`watchQueue`,
   * `watchPool`, …): the group commits' queues, the database pool and the database's state.
   */
  #registerSourceGauges(registers: Registry[]): void {
    const queues = this.#queues;
    new Gauge({
      name: 'coinop_group_commit_queue_depth',
      help: 'Jobs waiting for a group-commit batch, by queue',
      labelNames: ['queue'],
      registers,
      collect() {
        for (const [name, queue] of queues) this.set({ queue: name }, queue.queued);
      },
    });
    new Gauge({
      name: 'coinop_group_commit_batches_in_flight',
      help: 'Group-commit batches committing now, by queue',
      labelNames: ['queue'],
      registers,
      collect() {
        for (const [name, queue] of queues) this.set({ queue: name }, queue.inFlight);
      },
    });
    const pool = () => this.#pool?.() ?? null;
    new Gauge({
      name: 'coinop_db_pool_connections',
      help: 'Database connections of this process, by state (idle, in_use) and the pool size (max)',
      labelNames: ['state'],
      registers,
      collect() {
        const stats = pool();
        if (stats === null) return;
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'in_use' }, stats.total - stats.idle);
        this.set({ state: 'max' }, stats.max);
      },
    });
    const database = () => this.#database;
    new Gauge({
      name: 'coinop_db_unavailable',
      help: '1 while this process cannot reach its database (from the first failed call to the first that succeeds), else 0',
      registers,
      aggregator: 'max',
      collect() {
        const watched = database();
        if (watched !== null) this.set(watched.isUnavailable ? 1 : 0);
      },
    });
    new Gauge({
      name: 'coinop_db_pool_waiting',
      help: 'Queries waiting for a free database connection',
      registers,
      collect() {
        const stats = pool();
        if (stats !== null) this.set(stats.waiting);
      },
    });
  }

  /** One answered request. `route` is the pattern (`/play/:playId`), never the URL. */
  observeRequest(
    listener: string,
    route: string,
    method: string,
    statusCode: number,
    seconds: number,
  ): void {
    // One child per label set, found by a string key: prom-client would otherwise sort and
    // hash the labels object on every request.
    const statusClass = `${Math.floor(statusCode / 100)}xx`;
    const key = `${listener} ${method} ${statusClass} ${route}`;
    let child = this.#requestChildren.get(key);
    if (child === undefined) {
      child = this.#requests.labels({ listener, route, method, status_class: statusClass });
      this.#requestChildren.set(key, child);
    }
    child.observe(seconds);
  }

  /** One request answered 5xx; `code` its problem's, or `none`. */
  serverError(listener: string, code: string): void {
    this.#serverErrors.inc({ listener, code });
  }

  playOpened(outcome: Outcome): void {
    this.#plays.inc({ outcome });
  }

  scoreRecorded(outcome: Outcome): void {
    this.#scores.inc({ outcome });
  }

  signIn(flow: 'wallet' | 'cli_login', outcome: Outcome): void {
    this.#signIns.inc({ flow, outcome });
  }

  batchCommitted(queue: string, size: number): void {
    this.#batchSizes.observe({ queue }, size);
  }

  /** A tournament round closed by this process, in `seconds`, paying `transfers` transfers. */
  roundClosed(seconds: number, transfers: number): void {
    this.#roundCloses.observe(seconds);
    this.#roundPayoutTransfers.observe(transfers);
  }

  roundCloseFailed(): void {
    this.#roundCloseFailures.inc();
  }

  watchQueue(name: string, queue: QueueSource): void {
    this.#queues.set(name, queue);
  }

  watchPool(stats: () => PoolStats): void {
    this.#pool = stats;
  }

  /** Reports whether the database can be reached (`coinop_db_unavailable`) from now on. */
  watchDatabase(availability: { readonly isUnavailable: boolean }): void {
    this.#database = availability;
  }

  /**
   * Reports the ledger's totals from now on. Their gauges exist only in a process that reads
   * the ledger (the API), so a sign-in or web process reports no misleading zero.
   */
  watchLedger(read: () => Promise<LedgerTotals>): void {
    const ledger = new CachedSource(read);
    this.#ledger ??= ledger;
    if (this.#ledger !== ledger) return;
    const registers = [this.registry];
    // Every process reads the same ledger: across a cluster's workers the largest reading is
    // the latest, not a sum.
    new Gauge({
      name: 'coinop_ledger_minted_units',
      help: 'HST minted into the ledger, in base units (10^8 a HST), read every few seconds',
      registers,
      aggregator: 'max',
      async collect() {
        const totals = await ledger.get();
        if (totals) this.set(Number(totals.mintedUnits));
      },
    });
    new Gauge({
      name: 'coinop_ledger_pending_units',
      help: 'HST held in pending transfers (open plays), in base units, read every few seconds',
      registers,
      aggregator: 'max',
      async collect() {
        const totals = await ledger.get();
        if (totals) this.set(Number(totals.pendingUnits));
      },
    });
  }

  /** Reports the chain watcher's lag and the withdrawal queue from now on (chain mode). */
  watchChain(vault: string, read: () => Promise<ChainProgress>): void {
    const chain = new CachedSource(read);
    this.#chain ??= chain;
    if (this.#chain !== chain) return;
    const registers = [this.registry];
    new Gauge({
      name: 'coinop_chain_watcher_lag_blocks',
      help: "Blocks between the chain's head and the last block the deposit watcher read",
      // Labelled, so the gauge is absent (not 0) until the watcher has read the chain.
      labelNames: ['vault'],
      registers,
      aggregator: 'max',
      async collect() {
        const progress = await chain.get();
        if (progress && progress.lagBlocks !== null) this.set({ vault }, progress.lagBlocks);
      },
    });
    new Gauge({
      name: 'coinop_chain_withdrawals',
      help: 'Withdrawals by state: queued (not sent yet) and sent (not yet final)',
      labelNames: ['state'],
      registers,
      aggregator: 'max',
      async collect() {
        const progress = await chain.get();
        if (!progress) return;
        this.set({ state: 'queued' }, progress.withdrawalsQueued);
        this.set({ state: 'sent' }, progress.withdrawalsSent);
      },
    });
    new Gauge({
      name: 'coinop_chain_halted',
      help: "1 while the vault's senders are halted (no withdrawal, settlement or refund leaves)",
      labelNames: ['vault'],
      registers,
      aggregator: 'max',
      async collect() {
        const progress = await chain.get();
        if (progress && progress.halted !== null) this.set({ vault }, progress.halted ? 1 : 0);
      },
    });
    new Gauge({
      name: 'coinop_chain_watcher_head_age_seconds',
      help: "Seconds since the deposit watcher last got the chain's head: grows while the RPC fails",
      labelNames: ['vault'],
      registers,
      // The freshest reading of any worker is the watcher's, not a sum.
      aggregator: 'min',
      async collect() {
        const progress = await chain.get();
        // Counted at the scrape, not at the cached read, so it grows between reads too.
        if (progress && progress.headSeenAt !== null) {
          this.set({ vault }, Math.max(0, (Date.now() - progress.headSeenAt.getTime()) / 1000));
        }
      },
    });
  }

  /** The metrics in Prometheus' text format. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}

function counter<L extends string>(config: CounterConfiguration<L>): Counter<L> {
  return new Counter(config);
}
