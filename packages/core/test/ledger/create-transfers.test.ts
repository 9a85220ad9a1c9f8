import { describe, expect, it } from 'vitest';
import {
  createTransfers,
  type Account,
  type AccountKind,
  type LedgerSnapshot,
  type Transfer,
  type TransferRequest,
} from '../../src/index.js';

const account = (
  id: string,
  kind: AccountKind,
  creditsPosted = 0n,
  debitsPending = 0n,
): Account => ({
  id,
  kind,
  debitsPending,
  debitsPosted: 0n,
  creditsPending: 0n,
  creditsPosted,
});

const transfer = (over: Partial<TransferRequest> & { id: string }): TransferRequest => ({
  kind: 'posted',
  debitAccountId: 'player',
  creditAccountId: 'escrow',
  amount: 10n,
  pendingId: null,
  reason: 'payment',
  playId: null,
  ...over,
});

const snapshot = (over: Partial<LedgerSnapshot> = {}): LedgerSnapshot => ({
  accounts: new Map([
    ['player', account('player', 'player', 100n)],
    ['escrow', account('escrow', 'escrow')],
    ['mint', account('mint', 'mint')],
    ['vault', account('vault', 'vault')],
  ]),
  existing: new Map(),
  pendings: new Map(),
  resolvedPendings: new Map(),
  ...over,
});

const stored = (t: TransferRequest): Transfer => ({ ...t, createdAt: new Date(0) });

describe('createTransfers result codes, in precedence order', () => {
  const pending = transfer({ id: 'p1', kind: 'pending', amount: 40n });
  const withPending = snapshot({
    accounts: new Map([
      ['player', account('player', 'player', 100n, 40n)],
      ['escrow', { ...account('escrow', 'escrow'), creditsPending: 40n }],
    ]),
    pendings: new Map([['p1', stored(pending)]]),
  });

  it.each<[string, TransferRequest, LedgerSnapshot, string]>([
    ['zero amount', transfer({ id: 't', amount: 0n }), snapshot(), 'amount_must_be_positive'],
    ['negative amount', transfer({ id: 't', amount: -1n }), snapshot(), 'amount_must_be_positive'],
    [
      'same accounts (after amount)',
      transfer({ id: 't', creditAccountId: 'player' }),
      snapshot(),
      'accounts_must_be_different',
    ],
    [
      'post without pending id',
      transfer({ id: 't', kind: 'post_pending', amount: 0n }),
      snapshot(),
      'pending_id_must_be_set',
    ],
    [
      'pending id on a posted transfer',
      transfer({ id: 't', pendingId: 'p1' }),
      snapshot(),
      'pending_id_must_not_be_set',
    ],
    [
      'same id, same fields',
      transfer({ id: 'dup' }),
      snapshot({ existing: new Map([['dup', stored(transfer({ id: 'dup' }))]]) }),
      'exists',
    ],
    [
      'same id, other amount (before balance checks)',
      transfer({ id: 'dup', amount: 1_000n }),
      snapshot({ existing: new Map([['dup', stored(transfer({ id: 'dup' }))]]) }),
      'exists_with_different_fields',
    ],
    [
      'unknown debit account',
      transfer({ id: 't', debitAccountId: 'nobody' }),
      snapshot(),
      'debit_account_not_found',
    ],
    [
      'unknown credit account',
      transfer({ id: 't', creditAccountId: 'nobody' }),
      snapshot(),
      'credit_account_not_found',
    ],
    [
      'unknown pending transfer',
      transfer({ id: 't', kind: 'post_pending', amount: 0n, pendingId: 'nope' }),
      snapshot(),
      'pending_transfer_not_found',
    ],
    [
      'pending id naming a posted transfer',
      transfer({ id: 't', kind: 'void_pending', amount: 0n, pendingId: 'x' }),
      snapshot({ pendings: new Map([['x', stored(transfer({ id: 'x' }))]]) }),
      'pending_transfer_not_pending',
    ],
    [
      'posting with other accounts',
      transfer({
        id: 't',
        kind: 'post_pending',
        amount: 0n,
        pendingId: 'p1',
        creditAccountId: 'mint',
      }),
      {
        ...withPending,
        accounts: new Map([...withPending.accounts, ['mint', account('mint', 'mint')]]),
      },
      'pending_transfer_has_different_accounts',
    ],
    [
      'already posted',
      transfer({ id: 't', kind: 'void_pending', amount: 0n, pendingId: 'p1' }),
      { ...withPending, resolvedPendings: new Map([['p1', 'posted' as const]]) },
      'pending_transfer_already_posted',
    ],
    [
      'already voided',
      transfer({ id: 't', kind: 'post_pending', amount: 0n, pendingId: 'p1' }),
      { ...withPending, resolvedPendings: new Map([['p1', 'voided' as const]]) },
      'pending_transfer_already_voided',
    ],
    ['more than the balance', transfer({ id: 't', amount: 101n }), snapshot(), 'exceeds_credits'],
    ['exactly the balance', transfer({ id: 't', amount: 100n }), snapshot(), 'created'],
    [
      'pending debits count against the balance',
      transfer({ id: 't', amount: 61n }),
      withPending,
      'exceeds_credits',
    ],
    [
      'the mint may go negative',
      transfer({ id: 't', debitAccountId: 'mint', amount: 10n ** 18n }),
      snapshot(),
      'created',
    ],
    [
      'a vault account may go negative (HST deposited into its vault)',
      transfer({ id: 't', debitAccountId: 'vault', creditAccountId: 'player', amount: 10n ** 18n }),
      snapshot(),
      'created',
    ],
  ])('%s → %s', (_name, request, snap, expected) => {
    const outcome = createTransfers([request], snap);
    expect(outcome.results).toEqual([expected]);
    expect(outcome.ok).toBe(expected === 'created' || expected === 'exists');
  });
});

describe('createTransfers effects', () => {
  it('posts a pending transfer in full and moves pending balances to posted', () => {
    const lock = transfer({ id: 'lock', kind: 'pending', amount: 30n });
    const first = createTransfers([lock], snapshot());
    expect(first.deltas.get('player')).toEqual({
      debitsPending: 30n,
      debitsPosted: 0n,
      creditsPending: 0n,
      creditsPosted: 0n,
    });
    expect(first.deltas.get('escrow')).toEqual({
      debitsPending: 0n,
      debitsPosted: 0n,
      creditsPending: 30n,
      creditsPosted: 0n,
    });

    const post = transfer({ id: 'post', kind: 'post_pending', amount: 0n, pendingId: 'lock' });
    const second = createTransfers(
      [post],
      snapshot({
        accounts: new Map([
          ['player', account('player', 'player', 100n, 30n)],
          ['escrow', { ...account('escrow', 'escrow'), creditsPending: 30n }],
        ]),
        pendings: new Map([['lock', stored(lock)]]),
      }),
    );
    expect(second.results).toEqual(['created']);
    expect(second.toInsert[0]?.amount).toBe(30n);
    expect(second.deltas.get('player')).toEqual({
      debitsPending: -30n,
      debitsPosted: 30n,
      creditsPending: 0n,
      creditsPosted: 0n,
    });
    expect(second.deltas.get('escrow')).toEqual({
      debitsPending: 0n,
      debitsPosted: 0n,
      creditsPending: -30n,
      creditsPosted: 30n,
    });
  });

  it('sees earlier transfers of the batch: a second spend of the same funds fails the batch', () => {
    const outcome = createTransfers(
      [transfer({ id: 'a', amount: 60n }), transfer({ id: 'b', amount: 60n })],
      snapshot(),
    );
    expect(outcome.results).toEqual(['created', 'exceeds_credits']);
    expect(outcome.ok).toBe(false);
  });

  it('a repeated id inside one batch is an idempotent retry, applied once', () => {
    const outcome = createTransfers([transfer({ id: 'a' }), transfer({ id: 'a' })], snapshot());
    expect(outcome.results).toEqual(['created', 'exists']);
    expect(outcome.toInsert).toHaveLength(1);
    expect(outcome.deltas.get('player')?.debitsPosted).toBe(10n);
  });

  it('keeps debits equal to credits over a seeded random sequence', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed % n;
    };
    const ids = ['a', 'b', 'c', 'd'];
    const accounts = new Map<string, Account>(ids.map((id) => [id, account(id, 'player', 1_000n)]));
    accounts.set('mint', { ...account('mint', 'mint'), debitsPosted: 4_000n });
    for (let step = 0; step < 500; step++) {
      const debit = ids[rand(4)]!;
      const credit = ids[rand(4)]!;
      const request = transfer({
        id: `t${step}`,
        debitAccountId: debit,
        creditAccountId: credit,
        amount: BigInt(1 + rand(400)),
      });
      const outcome = createTransfers([request], { ...snapshot(), accounts });
      for (const [id, d] of outcome.deltas) {
        const a = accounts.get(id)!;
        accounts.set(id, {
          ...a,
          debitsPosted: a.debitsPosted + d.debitsPosted,
          creditsPosted: a.creditsPosted + d.creditsPosted,
        });
      }
      const all = [...accounts.values()];
      const debits = all.reduce((s, a) => s + a.debitsPosted, 0n);
      const credits = all.reduce((s, a) => s + a.creditsPosted, 0n);
      expect(debits, `seed 7, step ${step}`).toBe(credits);
      for (const a of all)
        if (a.kind !== 'mint') expect(a.creditsPosted - a.debitsPosted).toBeGreaterThanOrEqual(0n);
    }
  });
});
