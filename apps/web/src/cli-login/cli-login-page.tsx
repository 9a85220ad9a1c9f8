import './cli-login.css';
import { useEffect, useState, type RefObject } from 'react';
import { formatHstUnits, hstUnits } from '../account/hst-amounts.js';
import { ImportKeyDialog } from '../components/import-key-dialog.js';
import { WalletChooser } from '../components/wallet-chooser.js';
import type { CliLoginInfo } from './cli-login-api.js';
import { Address as AddressText, shortAddress } from '../components/address.js';
import { useTitle } from '../components/page-title.js';
import { useSession } from '../session/session.js';
import { useCliLoginDecision, useCliLoginRequest, type Outcome } from './use-cli-login.js';

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
  const { info, loadError, outcome, setOutcome, resultHeading } = useCliLoginRequest(
    requestorId,
    userCode,
  );
  const decision = useCliLoginDecision({ requestorId, userCode, info, setOutcome });
  const { signedIn, switching, error, importing, setImporting } = decision;
  useTitle('Sign in to your game');
  // The decision is "Step 2" only after this page asked for a wallet (Step 1): a player who
  // arrives signed in has one step.
  const signedOut = useSession().state.status === 'signed-out';
  const [askedWallet, setAskedWallet] = useState(false);
  useEffect(() => {
    if (signedOut || switching) setAskedWallet(true);
  }, [signedOut, switching]);

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
      {outcome?.kind !== 'expired' && <RequestCard info={info} decided={outcome !== undefined} />}

      {outcome !== undefined ? (
        <Result
          outcome={outcome.kind}
          grantedDailyLimit={outcome.grantedDailyLimit}
          gameName={info.game?.name ?? null}
          headingRef={resultHeading}
        />
      ) : signedIn === null || switching ? (
        <WalletStep decision={decision} />
      ) : (
        <DecisionForm decision={decision} info={info} signedIn={signedIn} numbered={askedWallet} />
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

type Decision = ReturnType<typeof useCliLoginDecision>;

/** Who asks to sign in, for which game, and the code to compare with the game's. */
function RequestCard({ info, decided }: { info: CliLoginInfo; decided: boolean }) {
  return (
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
      {!decided && (
        <p>
          Check that this code matches the one shown in your game. If it does not, close this page.
        </p>
      )}
    </section>
  );
}

/** Step 1: sign in with a wallet (or switch to another). */
function WalletStep({ decision }: { decision: Decision }) {
  const { busy, connect, setImporting, switching, setSwitching, signedIn } = decision;
  return (
    <section className="cli-login-card" aria-labelledby="cli-wallet-heading">
      <h2 id="cli-wallet-heading">Step 1: choose your wallet</h2>
      <p className="muted">
        Your wallet signs a message to prove it is yours. It costs nothing and sends no transaction.
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
  );
}

/**
 * Step 2 (or the only step, for a player already signed in): approve (with a daily allowance for
 * a published game) or reject, signed in.
 */
function DecisionForm({
  decision,
  info,
  signedIn,
  numbered,
}: {
  decision: Decision;
  info: CliLoginInfo;
  signedIn: NonNullable<Decision['signedIn']>;
  /** Whether the wallet step came first on this page, so this one is "Step 2". */
  numbered: boolean;
}) {
  const { decide, decisionHeading, setSwitching, allowanceAsked, dailyLimit, setDailyLimit } =
    decision;
  const { setError, busy } = decision;
  const { player } = signedIn;
  // A new player's name is their wallet's short form: the wallet alone then says who signed in.
  const named = player.wallet === null || player.name !== shortAddress(player.wallet);
  return (
    <form
      className="cli-login-card"
      aria-labelledby="cli-decision-heading"
      onSubmit={(event) => void decide(true, event)}
      noValidate
    >
      <h2 id="cli-decision-heading" ref={decisionHeading} tabIndex={-1}>
        {numbered ? 'Step 2: approve or reject' : 'Approve or reject'}
      </h2>
      <p className="cli-login-account">
        Signed in
        {named && (
          <>
            {' '}
            as <strong>{player.name}</strong>
          </>
        )}
        {player.wallet !== null && (
          <>
            {' '}
            with the wallet
            <span className="cli-login-address">
              <AddressText address={player.wallet} />
            </span>
          </>
        )}
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
  );
}

function Result({
  outcome,
  grantedDailyLimit,
  gameName,
  headingRef,
}: {
  outcome: Outcome;
  /** As the arcade wrote it: an exact decimal string of HST. */
  grantedDailyLimit: string | null;
  gameName: string | null;
  headingRef: RefObject<HTMLHeadingElement | null>;
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
