import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { ChainHalt, ChainStatus, ChainSurplus } from '@coinop/protocol';
import type { AdminApi } from './admin-api.js';
import { Outcome, When, errorText } from './parts.js';
import { SurplusPanel } from './surplus-panel.js';
import { chainVerdict } from './chain-verdict.js';
import { checksummed } from '../components/address.js';

/** How often the screen reads the status again while a resume waits for the watcher. */
const RESUMING_POLL_MS = 2_000;

/** What each cause of a halt means, in the operator's words. */
export const HALT_CAUSES: Record<ChainHalt['cause'], string> = {
  reorg: 'the chain reorganised deeper than the confirmations',
  chain_mismatch: 'the RPC answers another chain, or the vault another token',
  shortfall: 'the vault holds less HST than the ledger owes',
};

/**
 * The chain vault (issue 27): whether HST may leave it, and if not why, with the resume that lets
 * it leave again; the watcher's last reconciliation; HST sent to it without a deposit (surplus)
 * and what to do with it; and the halts so far, with who resumed each and why.
 */
export function ChainScreen({ api }: { api: AdminApi }) {
  const [status, setStatus] = useState<ChainStatus | null>(null);
  const [halts, setHalts] = useState<readonly ChainHalt[]>([]);
  const [surplus, setSurplus] = useState<readonly ChainSurplus[]>([]);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      const next = await api.chainStatus();
      setStatus(next);
      if (next.enabled) {
        const [h, s] = await Promise.all([api.chainHalts(), api.chainSurplus()]);
        setHalts(h);
        setSurplus(s);
      }
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }, [api]);
  useEffect(() => {
    void reload();
  }, [reload]);
  // A resume waits for the watcher to read the chain again: follow it until HST may leave.
  const resuming = Boolean(status?.halt?.resume);
  const verdict = status?.enabled ? chainVerdict(status) : null;
  useEffect(() => {
    if (!resuming) return;
    const timer = setInterval(() => void reload(), RESUMING_POLL_MS);
    return () => clearInterval(timer);
  }, [resuming, reload]);

  return (
    <>
      <h1>Chain</h1>
      {error !== null && (
        <Outcome text={`Could not read the chain status: ${error}`} tone="error" />
      )}
      {status === null ? (
        error === null && <p role="status">Reading the chain status…</p>
      ) : !status.enabled ? (
        <p className="admin-empty">
          This arcade runs without a chain vault: its HST lives in the ledger alone.
        </p>
      ) : (
        <>
          {status.halt ? (
            <HaltPanel api={api} status={status} halt={status.halt} onResumed={reload} />
          ) : (
            <p
              className={verdict?.kind === 'sending' ? 'admin-verdict ok' : 'admin-verdict bad'}
              data-testid="chain-verdict"
            >
              {verdict?.text}
              {status.reconciliation && status.reconciliation.acceptedShortfall !== '0' && (
                <>
                  {' '}
                  The vault is {status.reconciliation.acceptedShortfall} HST short, accepted at the
                  last resume: the audit stays red until it is covered.
                </>
              )}
            </p>
          )}
          <StatusFacts status={status} />
          <SurplusPanel api={api} surplus={surplus} onSettled={reload} />
          <HaltHistory halts={halts} />
        </>
      )}
    </>
  );
}

function StatusFacts({ status }: { status: ChainStatus }) {
  const r = status.reconciliation;
  return (
    <section aria-labelledby="chain-facts-heading" className="admin-panel">
      <h2 id="chain-facts-heading">Watcher</h2>
      <dl className="admin-facts">
        <dt>State</dt>
        <dd>{status.state}</dd>
        <dt>Vault</dt>
        <dd className="admin-mono">
          {status.vaultAddress === undefined ? '—' : checksummed(status.vaultAddress)} (chain{' '}
          {status.chainId ?? '—'})
        </dd>
        <dt>Checkpoint</dt>
        <dd>
          block {status.checkpointBlock ?? '—'}, head {status.headBlock ?? '—'}, lag{' '}
          {status.lagBlocks ?? '—'} blocks
        </dd>
        <dt>Last reconciled</dt>
        <dd>
          {r ? (
            <>
              <When iso={r.at} /> at block {r.blockNumber}:{' '}
              {r.unexplained === '0'
                ? 'the vault holds what the ledger owes'
                : r.unexplained.startsWith('-')
                  ? `the vault holds ${r.unexplained.slice(1)} HST less than the ledger owes`
                  : `the vault holds ${r.unexplained} HST more than it accounts for`}
              {r.acceptedShortfall !== '0' && ` (${r.acceptedShortfall} HST short accepted)`}
            </>
          ) : (
            <span className="admin-muted">not yet</span>
          )}
        </dd>
        <dt>Withdrawals queued</dt>
        <dd>
          {status.withdrawals?.queued.count ?? 0} ({status.withdrawals?.queued.amount ?? '0'} HST)
          {status.withdrawals?.waiting && (
            <span className="admin-sub">waiting: {status.withdrawals.waiting}</span>
          )}
        </dd>
        {status.lastError && (
          <>
            <dt>Last error</dt>
            <dd>
              {status.lastError.message} (<When iso={status.lastError.at} />)
            </dd>
          </>
        )}
      </dl>
    </section>
  );
}

/** The halt, said plainly, and the form that resumes the senders. */
function HaltPanel({
  api,
  status,
  halt,
  onResumed,
}: {
  api: AdminApi;
  status: ChainStatus;
  halt: ChainHalt;
  onResumed: () => Promise<void>;
}) {
  return (
    <section aria-labelledby="halt-heading" className="admin-panel admin-halt">
      <h2 id="halt-heading">No HST leaves the vault</h2>
      <p>
        Withdrawals, settlements and refunds are halted since <When iso={halt.haltedAt} />:{' '}
        <strong>{HALT_CAUSES[halt.cause]}</strong>. They stay queued, and are sent once you resume.
      </p>
      <p className="admin-quote">{halt.detail}</p>
      {halt.resume ? (
        <p role="status">
          Resuming ({halt.resume.by}, <When iso={halt.resume.requestedAt} />
          ): the watcher reads the chain again from block {halt.resume.fromBlock}; HST leaves once
          the vault reconciles.
        </p>
      ) : (
        <ResumeForm api={api} status={status} halt={halt} onResumed={onResumed} />
      )}
    </section>
  );
}

function ResumeForm({
  api,
  status,
  halt,
  onResumed,
}: {
  api: AdminApi;
  status: ChainStatus;
  halt: ChainHalt;
  onResumed: () => Promise<void>;
}) {
  const byId = useId();
  const reasonId = useId();
  const blockId = useId();
  const acceptId = useId();
  const [by, setBy] = useState('');
  const [reason, setReason] = useState('');
  const [fromBlock, setFromBlock] = useState('');
  const [accept, setAccept] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);
  const reorg = status.reorg !== null && status.reorg !== undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (by.trim() === '' || reason.trim() === '' || (reorg && !/^\d+$/.test(fromBlock.trim()))) {
      setOutcome({
        text: reorg
          ? 'Give your name, why it is safe now, and the block to read again from.'
          : 'Give your name and why it is safe now.',
        tone: 'error',
      });
      return;
    }
    if (!window.confirm('Resume withdrawals, settlements and refunds from the vault?')) return;
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await api.resumeChain({
        by: by.trim(),
        reason: reason.trim(),
        ...(reorg ? { fromBlock: Number(fromBlock.trim()) } : {}),
        ...(accept.trim() === '' ? {} : { acceptShortfall: accept.trim() }),
      });
      setOutcome({
        text:
          answer.state === 'resumed'
            ? 'Resumed: HST leaves the vault again.'
            : 'Resuming: HST leaves once the watcher has read the chain again and the vault reconciles.',
        tone: 'ok',
      });
      await onResumed();
    } catch (e) {
      setOutcome({ text: `Could not resume: ${errorText(e)}`, tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Resume">
      <div className="field">
        <label htmlFor={byId}>Your name (recorded)</label>
        <input id={byId} value={by} autoComplete="name" onChange={(e) => setBy(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={reasonId}>Why it is safe now: what you found and did (recorded)</label>
        <textarea id={reasonId} value={reason} onChange={(e) => setReason(e.target.value)} />
      </div>
      {reorg && (
        <div className="field">
          <label htmlFor={blockId}>Read again from block (at or below the fork)</label>
          <input
            id={blockId}
            value={fromBlock}
            inputMode="numeric"
            onChange={(e) => setFromBlock(e.target.value)}
          />
        </div>
      )}
      {halt.cause === 'shortfall' && (
        <div className="field">
          <label htmlFor={acceptId}>
            Accept a shortfall covered outside the vault (HST, exactly; leave empty otherwise)
          </label>
          <input
            id={acceptId}
            value={accept}
            inputMode="decimal"
            onChange={(e) => setAccept(e.target.value)}
          />
        </div>
      )}
      <button type="submit" className="primary" disabled={busy}>
        Resume
      </button>
      <Outcome text={outcome?.text ?? null} tone={outcome?.tone ?? 'ok'} />
    </form>
  );
}

function HaltHistory({ halts }: { halts: readonly ChainHalt[] }) {
  return (
    <section aria-labelledby="halts-heading" className="admin-panel">
      <h2 id="halts-heading">Halts</h2>
      {halts.length === 0 ? (
        <p className="admin-muted">The vault has never been halted.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table stacked-rows">
            <caption className="visually-hidden">Halts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Halted</th>
                <th scope="col">Why</th>
                <th scope="col">Resumed</th>
              </tr>
            </thead>
            <tbody>
              {halts.map((h) => (
                <tr key={h.id}>
                  <td data-label="Halted">
                    <When iso={h.haltedAt} />
                  </td>
                  <td data-label="Why">
                    {HALT_CAUSES[h.cause]}
                    <span className="admin-sub">{h.detail}</span>
                  </td>
                  <td data-label="Resumed">
                    {h.resume ? (
                      <>
                        {h.resumedAt ? <When iso={h.resumedAt} /> : 'resuming'} by {h.resume.by}
                        <span className="admin-sub">{h.resume.reason}</span>
                      </>
                    ) : (
                      <span className="admin-muted">not yet</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
