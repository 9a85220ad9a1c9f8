import { useCallback, useEffect, useState } from 'react';
import type { ActivityItem, ActivityPage } from '@coinop/protocol';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import { playEndsText } from '../components/play-ends.js';
import { scoreText } from '../components/score.js';
import { ErrorAlert, When, errorText } from '../portal/parts.js';
import { Link } from '../router.js';
import { TxHash } from '../account/tx-hash.js';
import { WITHDRAWAL_STATUS_TEXT } from '../account/withdrawal-status.js';
import './history.css';

const PAGE_SIZE = 10;

/** Whose history it is: the signed-in player's own, or a player the operator looks at. */
export type HistoryViewer = 'player' | 'operator';

const WORDS = {
  player: {
    whose: 'your',
    empty: 'Nothing yet: your plays, scores, payouts and HST moved in or out will show here.',
    end: 'That is everything since you joined.',
  },
  operator: {
    whose: 'their',
    empty: 'Nothing yet: this player has no plays, scores or payouts.',
    end: 'That is everything since they joined.',
  },
} as const;

/** An amount as the API wrote it (exact decimal text), grouped for reading: `1,250.5 HST`. */
const hst = (amount: string) => formatHstUnits(hstUnits(amount));

/** What review made of a play's score (docs/reference/review-queue.md), after the result. */
function reviewText(review: Extract<ActivityItem, { kind: 'play' }>['review']): string {
  if (review === null) return '';
  switch (review.outcome) {
    case 'voided':
      // The play keeps its settlement: its cost paid the leaders, the developer and the arcade.
      return ` · score voided — ${review.reason} · its cost is not returned`;
    case 'kept':
      return ' · reviewed — kept';
    case 'refused':
      return ` · a score was refused — ${review.reason}`;
  }
}

/**
 * Where a leader payout stands (docs/concepts/plays-and-settlement.md#hold-and-void): held until
 * its hold ends, or voided with the reason of the score void that reversed it (the play's new
 * payouts are lines of their own).
 */
function payoutText(payout: Extract<ActivityItem, { kind: 'payout' | 'returned' }>): string {
  switch (payout.status) {
    case 'held':
      return payout.releaseAt === null
        ? ' · held'
        : ` · held until ${new Date(payout.releaseAt).toLocaleString()}`;
    case 'voided':
      return ` · reversed: a score on the board was voided — ${payout.voidReason ?? ''}`;
    case 'paid':
      return '';
  }
}

/**
 * Why the leaders' part of what the player paid came back: nobody led the tier when their play
 * began (or every leader's score was voided within the hold), or nobody ranked in the round.
 */
function returnedText(item: Extract<ActivityItem, { kind: 'returned' }>): string {
  return item.playId === null
    ? `Pool share returned from ${item.tierName}: nobody ranked in the round`
    : `Leaders' share returned from ${item.tierName}: no leader to pay`;
}

/**
 * An open play: when it ends, after which it settles without a score
 * (docs/concepts/plays-and-settlement.md); its time may be up before the sweep settles it.
 */
function openPlayText(expiresAt: string): string {
  return Date.parse(expiresAt) > Date.now()
    ? `open, no score yet · ends at ${playEndsText(expiresAt)} if not scored`
    : 'time ran out without a score · settling';
}

/** Where a payout or a returned part stands, for the row's `data-status`. */
function payoutStatus(item: ActivityItem): string | undefined {
  return item.kind === 'payout' || item.kind === 'returned' ? item.status : undefined;
}

/** One line as the table shows it. */
interface Line {
  what: string;
  /** The HST it moved: + into the balance, − out of it; or where it moved instead. */
  amount: string;
  /**
   * A line that moved HST between the player's wallet and the vault on chain, not the arcade
   * balance (a play locked from the wallet, a payout of one): never read as a balance move.
   */
  onChain: boolean;
  /** Its chain transaction, if the line has one. */
  txHash: string | null;
}

/** What a line says, and the HST it moved: + into the balance, − out of it. */
function describe(item: ActivityItem, viewer: HistoryViewer): Line {
  const line = describeBalance(item, viewer);
  const wallet = `${WORDS[viewer].whose} wallet`;
  if (item.kind === 'play' && item.paidFrom === 'wallet') {
    return {
      what: `${line.what} · locked from ${wallet} on chain`,
      amount: `${hst(item.cost)} from ${wallet}`,
      onChain: true,
      txHash: item.txHash,
    };
  }
  if ((item.kind === 'payout' || item.kind === 'returned') && item.paidTo === 'wallet') {
    return {
      what: `${line.what} · paid to ${wallet} on chain${item.txHash === null ? ', not sent yet' : ''}`,
      amount: `${hst(item.amount)} to ${wallet}`,
      onChain: true,
      txHash: item.txHash,
    };
  }
  return { ...line, onChain: false, txHash: null };
}

/** A line that moved the arcade balance: what it says, and + into it or − out of it. */
function describeBalance(
  item: ActivityItem,
  viewer: HistoryViewer,
): { what: string; amount: string } {
  switch (item.kind) {
    case 'play': {
      const result =
        item.status === 'scored'
          ? `scored ${scoreText(item.score ?? '', item.scoreUnit)}${
              item.review?.outcome === 'voided' ? '' : `, ranked #${item.rank ?? ''}`
            }`
          : item.status === 'open'
            ? openPlayText(item.expiresAt)
            : item.status === 'voided'
              ? 'voided, cost returned'
              : 'expired without a score';
      return {
        what: `Played ${item.tierName}: ${result}${reviewText(item.review)}`,
        amount: item.cost === '0' ? 'free' : `−${hst(item.cost)}`,
      };
    }
    case 'payout':
      return {
        what: `Leader payout from ${item.tierName}${payoutText(item)}`,
        amount: `+${hst(item.amount)}`,
      };
    case 'returned':
      return {
        what: `${returnedText(item)}${payoutText(item)}`,
        amount: `+${hst(item.amount)}`,
      };
    case 'payment':
      return { what: 'Payment in the game', amount: `−${hst(item.amount)}` };
    case 'deposit':
      return { what: `Deposit from ${WORDS[viewer].whose} wallet`, amount: `+${hst(item.amount)}` };
    case 'withdrawal':
      return {
        what: `Withdrawal to a wallet (${WITHDRAWAL_STATUS_TEXT[item.status].toLowerCase()})`,
        amount: `−${hst(item.amount)}`,
      };
    case 'grant':
      return { what: 'HST added by the arcade (faucet or grant)', amount: `+${hst(item.amount)}` };
    case 'prize':
      return {
        what: `Tournament prize: place ${item.place} in ${item.tierName}`,
        amount: `+${hst(item.amount)}`,
      };
  }
}

/**
 * A player's history: plays with their scores, payouts, payments, deposits and withdrawals,
 * newest first, ten at a time with "Load more" (the API's cursor). On `/account` it reads the
 * player's own (`GET /player/activity`); in the operator console, the player's the operator
 * opened (`GET /admin/players/{player}/activity`), which pages the same way.
 */
export function HistorySection({
  read,
  viewer = 'player',
  reload = 0,
}: {
  /** A page of the activity: `query` is `limit=…` and, after the first page, `&cursor=…`. */
  read: (query: string) => Promise<ActivityPage>;
  viewer?: HistoryViewer;
  /** Changed by the page when something new happened: the first page is read again. */
  reload?: number;
}) {
  const words = WORDS[viewer];
  const [items, setItems] = useState<readonly ActivityItem[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [state, setState] = useState<'loading' | 'idle' | 'done'>('loading');
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(
    async (after: string | null) => {
      setState('loading');
      setError(null);
      try {
        const query = `limit=${PAGE_SIZE}${after === null ? '' : `&cursor=${after}`}`;
        const page = await read(query);
        setItems((shown) => (after === null ? page.items : [...shown, ...page.items]));
        setCursor(page.nextCursor);
        setState(page.nextCursor === null ? 'done' : 'idle');
      } catch (e) {
        setError(`Could not load ${words.whose} history: ${errorText(e)}`);
        setState('idle');
      }
    },
    [read, words],
  );
  useEffect(() => void load(null), [load, reload]);

  return (
    <section className="history" aria-labelledby="history-heading">
      <h2 id="history-heading">History</h2>
      {items.length === 0 && state === 'done' && <p className="history-empty">{words.empty}</p>}
      {items.length > 0 && (
        <div className="history-scroll">
          <table className="history-table">
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">What</th>
                <th scope="col">Game</th>
                <th scope="col" className="history-amount">
                  HST
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => {
                const { what, amount, onChain, txHash } = describe(item, viewer);
                return (
                  <tr
                    key={`${item.kind}-${item.id}`}
                    data-kind={item.kind}
                    data-status={payoutStatus(item)}
                    data-on-chain={onChain || undefined}
                  >
                    <td>
                      <When iso={item.at} />
                    </td>
                    <td>
                      {what}
                      {onChain && txHash !== null && (
                        <span className="history-tx">
                          {' '}
                          Transaction <TxHash hash={txHash} />
                        </span>
                      )}
                    </td>
                    <td>
                      {'gameId' in item && item.gameId !== '' ? (
                        <Link href={`/games/${encodeURIComponent(item.gameId)}`}>
                          {item.gameName}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </td>
                    <td className="history-amount">{amount}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <ErrorAlert error={error} />
      {state === 'loading' && <p role="status">Loading {words.whose} history…</p>}
      {state === 'idle' && cursor !== null && (
        <button type="button" onClick={() => void load(cursor)}>
          Load more
        </button>
      )}
      {state === 'done' && items.length > 0 && <p className="history-end">{words.end}</p>}
    </section>
  );
}
