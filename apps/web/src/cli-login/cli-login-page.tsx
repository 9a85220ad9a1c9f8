import './cli-login.css';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import { ApiError } from '../api.js';
import { ImportKeyDialog } from '../components/import-key-dialog.js';
import { WalletChooser } from '../components/wallet-chooser.js';
import { useSession, type WalletChoice } from '../session/session.js';
import { WalletError } from '../session/wallets.js';
import { cliLoginInfo, decideCliLogin, type CliLoginInfo } from './cli-login-api.js';
import { Address as AddressText } from '../components/address.js';

type Outcome = 'approved' | 'denied' | 'expired';

/** HST a day as the API takes it: digits, at most 8 decimals. */
const DAILY_LIMIT_PATTERN = /^\d+(\.\d{1,8})?$/;

/**
 * The approval page of a CLI login (spec 4.6) in the arcade, where the player's session and
 * every wallet are, the arcade wallet included: the sign-in service's `/cli/login` sends players
 * here. It shows who asks and the code to compare, signs in if needed, and approves or rejects
 * with the web session. Everything from the request reaches the page as text only.
 */
export function CliLoginPage({ search }: { search: string }) {
  const params = new URLSearchParams(search);
  const requestorId = params.get('requestorId') ?? '';
  const userCode = params.get('code') ?? '';
  const session = useSession();
  const [info, setInfo] = useState<CliLoginInfo | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<{ kind: Outcome; grantedDailyLimit: number | null }>();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [switching, setSwitching] = useState(false);
  const [importing, setImporting] = useState(false);
  const [dailyLimit, setDailyLimit] = useState('');
  /** Set on signing in here, so step 2's heading takes the focus once it is shown. */
  const [justSignedIn, setJustSignedIn] = useState(false);
  const resultHeading = useRef<HTMLHeadingElement>(null);
  const decisionHeading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (requestorId === '' || userCode === '') return;
    let cancelled = false;
    cliLoginInfo(requestorId, userCode).then(
      (loaded) => {
        if (cancelled) return;
        setInfo(loaded);
        if (loaded.status !== 'pending')
          setOutcome({ kind: loaded.status, grantedDailyLimit: null });
      },
      (e: unknown) => {
        if (cancelled) return;
        setLoadError(
          e instanceof ApiError && (e.status === 404 || e.status === 400)
            ? 'This sign-in request was not found, or its code does not match. Start signing in ' +
                'again from your game.'
            : (e as Error).message,
        );
      },
    );
    return () => {
      cancelled = true;
    };
  }, [requestorId, userCode]);

  useEffect(() => {
    if (outcome) resultHeading.current?.focus();
  }, [outcome]);

  useEffect(() => {
    if (!justSignedIn || decisionHeading.current === null) return;
    decisionHeading.current.focus();
    setJustSignedIn(false);
  }, [justSignedIn, session.state]);

  const signedIn = session.state.status === 'signed-in' ? session.state : null;
  const allowanceAsked = info?.game?.published === true;

  const connect = async (choice: WalletChoice) => {
    setBusy(true);
    setError(null);
    try {
      await session.connect(choice);
      setSwitching(false);
      setJustSignedIn(true);
    } catch (e) {
      setError(
        e instanceof WalletError && e.rejected
          ? 'The wallet request was declined, so you were not signed in.'
          : `Could not sign in: ${(e as Error).message}`,
      );
    } finally {
      setBusy(false);
    }
  };

  const decide = async (approve: boolean, event?: FormEvent) => {
    event?.preventDefault();
    if (signedIn === null) return;
    setError(null);
    const typed = dailyLimit.trim();
    if (approve && allowanceAsked && typed !== '' && !DAILY_LIMIT_PATTERN.test(typed)) {
      setError(
        'Enter the HST a day as a number such as 20 or 2.5 (at most 8 decimals), or leave it ' +
          'empty.',
      );
      document.getElementById('cli-daily-limit')?.focus();
      return;
    }
    setBusy(true);
    try {
      const decided = await decideCliLogin(
        signedIn.token,
        requestorId,
        approve
          ? { approve, userCode, dailyLimit: allowanceAsked && typed !== '' ? typed : null }
          : { approve, userCode },
      );
      setOutcome({
        kind: decided.status === 'approved' ? 'approved' : 'denied',
        grantedDailyLimit: decided.grantedDailyLimit,
      });
    } catch (e) {
      if (e instanceof ApiError && ['expired_token', 'cli_request_expired'].includes(e.code)) {
        setOutcome({ kind: 'expired', grantedDailyLimit: null });
      } else if (e instanceof ApiError && e.status === 401) {
        session.signOut();
        setError(`Your sign-in has expired. Choose your wallet again. (${e.message})`);
      } else {
        setError((e as Error).message);
      }
    } finally {
      setBusy(false);
    }
  };

  if (requestorId === '' || userCode === '' || loadError !== null) {
    return (
      <section className="page cli-login">
        <h1>Sign in to your game</h1>
        <p role="alert" className="error">
          {loadError ?? 'This link is incomplete. Start signing in again from your game.'}
        </p>
      </section>
    );
  }
  if (info === null) {
    return (
      <section className="page cli-login">
        <h1>Sign in to your game</h1>
        <p role="status">Checking the sign-in request…</p>
      </section>
    );
  }

  return (
    <section className="page cli-login">
      <h1>Sign in to your game</h1>
      {outcome?.kind !== 'expired' && (
        <section className="cli-login-card" aria-labelledby="cli-request-heading">
          <h2 id="cli-request-heading">Sign-in request</h2>
          <dl className="cli-login-request">
            <dt>Requested by</dt>
            <dd data-testid="cli-description">{info.description}</dd>
            {info.game !== null && (
              <>
                <dt>Game</dt>
                <dd>{info.game.name}</dd>
              </>
            )}
            <dt>Code</dt>
            <dd className="cli-login-code" data-testid="cli-user-code">
              {info.userCode}
            </dd>
          </dl>
          {outcome === undefined && (
            <p>
              Check that this code matches the one shown in your game. If it does not, close this
              page.
            </p>
          )}
        </section>
      )}

      {outcome !== undefined ? (
        <Result
          outcome={outcome.kind}
          grantedDailyLimit={outcome.grantedDailyLimit}
          gameName={info.game?.name ?? null}
          headingRef={resultHeading}
        />
      ) : signedIn === null || switching ? (
        <section className="cli-login-card" aria-labelledby="cli-wallet-heading">
          <h2 id="cli-wallet-heading">Step 1: choose your wallet</h2>
          <p className="muted">
            Your wallet signs a message to prove it is yours. It costs nothing and sends no
            transaction.
          </p>
          <WalletChooser
            busy={busy}
            onChoose={(choice) => void connect(choice)}
            onImportKey={() => setImporting(true)}
          />
          {switching && (
            <button type="button" onClick={() => setSwitching(false)}>
              Keep {signedIn?.player.name}
            </button>
          )}
        </section>
      ) : (
        <form
          className="cli-login-card"
          aria-labelledby="cli-decision-heading"
          onSubmit={(event) => void decide(true, event)}
          noValidate
        >
          <h2 id="cli-decision-heading" ref={decisionHeading} tabIndex={-1}>
            Step 2: approve or reject
          </h2>
          <p className="cli-login-account">
            Signed in as <strong>{signedIn.player.name}</strong> with the wallet
            <span className="cli-login-address">
              {signedIn.player.wallet !== null && <AddressText address={signedIn.player.wallet} />}
            </span>
            <button type="button" className="cli-login-switch" onClick={() => setSwitching(true)}>
              Use another wallet
            </button>
          </p>
          <p>Approve only if you started signing in from your game and the code matches.</p>
          {info.game !== null && allowanceAsked && (
            <fieldset>
              <legend>What {info.game.name} may charge you</legend>
              <p className="muted">
                The game charges HST for each play only within a daily allowance you choose. You can
                change or revoke it at any time in the arcade.
              </p>
              <label htmlFor="cli-daily-limit">
                HST a day (leave empty to keep your current allowance)
              </label>
              <input
                id="cli-daily-limit"
                inputMode="decimal"
                autoComplete="off"
                spellCheck={false}
                value={dailyLimit}
                onChange={(event) => {
                  setDailyLimit(event.target.value);
                  // The complaint was about the old value.
                  setError(null);
                }}
              />
            </fieldset>
          )}
          {info.game !== null && !allowanceAsked && (
            <p className="muted">
              This game is not published yet: only its developer and the testers who accepted their
              invitation can play it for HST.
            </p>
          )}
          <div className="dialog-actions">
            <button type="submit" className="primary" disabled={busy}>
              Approve
            </button>
            <button type="button" disabled={busy} onClick={() => void decide(false)}>
              Reject
            </button>
          </div>
        </form>
      )}
      {error !== null && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
      {importing && <ImportKeyDialog onDone={() => setImporting(false)} />}
    </section>
  );
}

function Result({
  outcome,
  grantedDailyLimit,
  gameName,
  headingRef,
}: {
  outcome: Outcome;
  grantedDailyLimit: number | null;
  gameName: string | null;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
}) {
  const heading =
    outcome === 'approved'
      ? 'Approved — return to your game'
      : outcome === 'denied'
        ? 'Request rejected'
        : 'Request expired';
  const detail =
    outcome === 'approved'
      ? grantedDailyLimit === null || gameName === null
        ? 'Your game is now signed in. You can close this page.'
        : `Your game is now signed in, and ${gameName} may charge you up to ` +
          `${formatHstUnits(hstUnits(grantedDailyLimit))} a day. You can close this page.`
      : outcome === 'denied'
        ? 'Your game was not signed in. You can close this page.'
        : 'This sign-in request is no longer valid. Start signing in again from your game.';
  return (
    <section className={`cli-login-card cli-login-result cli-login-${outcome}`}>
      <h2 ref={headingRef} tabIndex={-1}>
        {heading}
      </h2>
      <p>{detail}</p>
    </section>
  );
}
