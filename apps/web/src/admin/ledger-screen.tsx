import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import type { HstAudit } from '@coinop/protocol';
import { checksummed } from '../components/address.js';
import { Link } from '../router.js';
import type { AdminApi } from './admin-api.js';
import { Hst, Outcome, errorText } from './parts.js';
import { TransfersPanel } from './ledger-transfers.js';
import { useChainMode } from './use-chain-mode.js';

/** As the API takes it: whole HST with at most 8 decimals, typed as text so no digit is lost. */
const HST_TEXT = /^\d+(\.\d{1,8})?$/;

/**
 * The ledger: the audit of every account (does it balance?), every transfer with filters (issue
 * 31), a balance look-up, and minting HST into an account — the only way HST comes into
 * existence, so it asks first. In chain mode the server refuses a mint, so the screen says how
 * HST reaches an account there instead.
 */
export function LedgerScreen({ api }: { api: AdminApi }) {
  const chainMode = useChainMode(api);
  const [audit, setAudit] = useState<HstAudit | null>(null);
  const [auditError, setAuditError] = useState<string | null>(null);
  // Bumped by a mint, so the transfer list shows it.
  const [minted, setMinted] = useState(0);

  const reloadAudit = useCallback(async () => {
    try {
      setAudit(await api.audit());
      setAuditError(null);
    } catch (e) {
      setAuditError(errorText(e));
    }
  }, [api]);
  useEffect(() => {
    void reloadAudit();
  }, [reloadAudit]);

  return (
    <>
      <h1>Ledger</h1>
      <section aria-labelledby="audit-heading" className="admin-panel">
        <h2 id="audit-heading">Audit</h2>
        {auditError !== null && (
          <Outcome text={`Could not audit the ledger: ${auditError}`} tone="error" />
        )}
        {audit === null ? (
          auditError === null && <p role="status">Auditing…</p>
        ) : (
          <>
            <p
              className={audit.balanced ? 'admin-verdict ok' : 'admin-verdict bad'}
              data-testid="audit-verdict"
            >
              {audit.balanced
                ? 'Balanced: debits equal credits, no account below zero.'
                : 'NOT balanced: stop and investigate (docs/concepts/ledger.md).'}
              {/* Balanced says nothing of the vault (operator review, finding 9). */}
              {audit.chainMode && (
                <>
                  {' '}
                  This is the ledger alone: whether the vault holds what the ledger owes is the
                  Chain screen&apos;s reconciliation (coinop admin hst audit --chain).
                </>
              )}
            </p>
            {audit.chainMode && audit.minted !== '0' && (
              <p className="admin-verdict bad" data-testid="audit-minted">
                {audit.minted} HST was minted in the ledger: in chain mode no token backs it, a
                shortfall (docs/operating/chain.md).
              </p>
            )}
            <dl className="admin-facts">
              <dt>Minted (net)</dt>
              <dd>
                <Hst amount={audit.minted} />
              </dd>
              <dt>Posted debits</dt>
              <dd>
                <Hst amount={audit.debitsPosted} />
              </dd>
              <dt>Posted credits</dt>
              <dd>
                <Hst amount={audit.creditsPosted} />
              </dd>
              <dt>Pending debits</dt>
              <dd>
                <Hst amount={audit.debitsPending} />
              </dd>
              <dt>Pending credits</dt>
              <dd>
                <Hst amount={audit.creditsPending} />
              </dd>
              <dt>Held by chain vaults</dt>
              <dd>
                <Hst amount={audit.vaultHeld} />
              </dd>
            </dl>
            <button type="button" onClick={() => void reloadAudit()}>
              Audit again
            </button>
          </>
        )}
      </section>
      <TransfersPanel api={api} refresh={minted} />
      {chainMode === false && (
        <MintPanel
          api={api}
          onMinted={async () => {
            setMinted((n) => n + 1);
            await reloadAudit();
          }}
        />
      )}
      {chainMode === true && <NoMintInChainMode />}
      <BalancePanel api={api} />
    </>
  );
}

function MintPanel({ api, onMinted }: { api: AdminApi; onMinted: () => Promise<void> }) {
  const accountId = useId();
  const amountId = useId();
  const [account, setAccount] = useState('');
  const [amount, setAmount] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const to = account.trim();
    // A wallet as every screen writes it, whatever case the operator typed.
    const shownTo = checksummed(to);
    const hst = amount.trim();
    if (to === '' || !HST_TEXT.test(hst)) {
      setOutcome({
        text: 'Give an account (id, player or developer id, or wallet) and an amount such as 12.5.',
        tone: 'error',
      });
      return;
    }
    if (!window.confirm(`Mint ${hst} HST into ${shownTo}? New HST comes into existence.`)) return;
    setBusy(true);
    setOutcome(null);
    try {
      const minted = await api.mint(to, hst);
      setOutcome({
        text: `Minted ${hst} HST into ${shownTo}: its balance is now ${formatHstUnits(hstUnits(minted.balance))}.`,
        tone: 'ok',
      });
      setAmount('');
      await onMinted();
    } catch (e) {
      setOutcome({ text: `Could not mint: ${errorText(e)}`, tone: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="mint-heading" className="admin-panel">
      <h2 id="mint-heading">Mint HST</h2>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label htmlFor={accountId}>Account, player, developer id or wallet</label>
          <input
            id={accountId}
            value={account}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setAccount(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={amountId}>Amount (HST)</label>
          <input
            id={amountId}
            value={amount}
            inputMode="decimal"
            autoComplete="off"
            onChange={(e) => setAmount(e.target.value)}
          />
        </div>
        <button type="submit" className="primary" disabled={busy}>
          Mint
        </button>
      </form>
      <Outcome text={outcome?.text ?? null} tone={outcome?.tone ?? 'ok'} />
    </section>
  );
}

/** In place of the mint in chain mode: why there is none, and how HST reaches an account. */
function NoMintInChainMode() {
  return (
    <section aria-labelledby="mint-heading" className="admin-panel">
      <h2 id="mint-heading">Mint HST</h2>
      <p data-testid="no-mint">
        No minting in chain mode: the ledger&apos;s HST is the vault&apos;s, and a mint would be HST
        no token backs, which withdrawals could pay out of other players&apos; HST. To give an
        account HST, deposit into the vault for it, or send HST to the vault with a plain ERC-20
        transfer and credit that surplus to the account on the{' '}
        <Link href="/admin/chain">Chain</Link> screen (
        <code>coinop admin chain credit-surplus 0xTXHASH:LOG --account …</code>).
      </p>
    </section>
  );
}

function BalancePanel({ api }: { api: AdminApi }) {
  const inputId = useId();
  const [account, setAccount] = useState('');
  const [outcome, setOutcome] = useState<{ text: string; tone: 'ok' | 'error' } | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const found = await api.balance(account.trim());
      setOutcome({
        text:
          `Account ${found.accountId}: ${formatHstUnits(hstUnits(found.balance))} spendable, ` +
          `${formatHstUnits(hstUnits(found.pending))} locked.`,
        tone: 'ok',
      });
    } catch (e) {
      setOutcome({ text: `Could not read the balance: ${errorText(e)}`, tone: 'error' });
    }
  };

  return (
    <section aria-labelledby="balance-heading" className="admin-panel">
      <h2 id="balance-heading">Balance of an account</h2>
      <form onSubmit={(e) => void submit(e)} className="admin-search">
        <div className="field">
          <label htmlFor={inputId}>Account, player, developer id or wallet</label>
          <input
            id={inputId}
            value={account}
            spellCheck={false}
            autoComplete="off"
            onChange={(e) => setAccount(e.target.value)}
          />
        </div>
        <button type="submit">Look up</button>
      </form>
      <Outcome text={outcome?.text ?? null} tone={outcome?.tone ?? 'ok'} />
    </section>
  );
}
