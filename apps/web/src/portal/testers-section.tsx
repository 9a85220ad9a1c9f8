import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { DeveloperGame, Tester } from '@coinop/protocol';
import { ErrorAlert, Status, When, errorText, usePortalApi } from './parts.js';
import { Address, checksummed } from '../components/address.js';

/** Where each invitation stands, as the developer reads it. */
const STATE_TEXT: Record<Tester['state'], string> = {
  invited: 'Invited',
  accepted: 'Accepted',
  declined: 'Declined',
  left: 'Left',
};

/** A wallet address as the arcade takes it: 0x and 40 hexadecimal digits. */
const WALLET = /^0x[0-9a-fA-F]{40}$/;

/**
 * The game's testers (docs/concepts/consent.md, "Testers"): the developer invites wallets; before
 * the operator publishes the game, its server may charge only the developer's own wallet and the
 * invited players who accepted, in the arcade, with their own session.
 */
export function TestersSection({ game }: { game: DeveloperGame }) {
  const api = usePortalApi();
  const [testers, setTesters] = useState<readonly Tester[] | null>(null);
  const [wallet, setWallet] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const reload = useCallback(async () => {
    setTesters(await api.listTesters(game.id));
  }, [api, game.id]);
  useEffect(() => {
    reload().catch((e: unknown) => setError(`Could not load the testers: ${errorText(e)}`));
  }, [reload]);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setStatus(null);
    const address = wallet.trim();
    if (!WALLET.test(address)) {
      setError(
        'A wallet address is 0x followed by 40 hexadecimal digits (0–9, a–f), such as ' +
          '0x52908400098527886E0F7030069857D2E4169EE7.',
      );
      return;
    }
    setBusy(true);
    try {
      const added = await api.addTester(game.id, address);
      setWallet('');
      setStatus(
        added.state === 'invited'
          ? `Invitation sent to ${checksummed(added.wallet)}. It becomes a tester once its player accepts in the arcade (Account → Testing).`
          : `${checksummed(added.wallet)} is already invited: ${STATE_TEXT[added.state].toLowerCase()}.`,
      );
      await reload();
    } catch (e) {
      setError(`Could not invite the tester: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  const remove = async (tester: Tester) => {
    setError(null);
    setStatus(null);
    setBusy(true);
    try {
      await api.removeTester(game.id, tester.wallet);
      setStatus(
        tester.state === 'accepted'
          ? `Tester ${checksummed(tester.wallet)} removed.`
          : `Invitation of ${checksummed(tester.wallet)} withdrawn.`,
      );
      await reload();
    } catch (e) {
      setError(`Could not remove the tester: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="portal-section" aria-labelledby="testers-heading">
      <h2 id="testers-heading">Testers</h2>
      <p className="muted">
        Before the operator publishes this game, its server can charge only your own wallet and the
        testers who accepted your invitation; nobody else, and each only within the daily allowance
        they gave the game (yours is on the game&apos;s page in the arcade). Invite a player by
        their wallet: they accept in the arcade, signed in with that wallet (Account → Testing),
        naming their daily limit, and may leave at any time.
        {game.published &&
          ' The game is published: every player now decides what it may charge them with their own daily allowance, so testers no longer matter.'}
      </p>
      <InviteForm wallet={wallet} setWallet={setWallet} busy={busy} onSubmit={(e) => void add(e)} />
      <ErrorAlert error={error} />
      <Status text={status} />
      {testers === null ? (
        error === null && <p role="status">Loading…</p>
      ) : testers.length === 0 ? (
        <p>No testers yet: only your own wallet can be charged before the game is published.</p>
      ) : (
        <ul className="portal-list" aria-label="Testers">
          {testers.map((t) => (
            <TesterCard key={t.wallet} tester={t} busy={busy} onRemove={() => void remove(t)} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** Inviting a wallet to test the game. */
function InviteForm({
  wallet,
  setWallet,
  busy,
  onSubmit,
}: {
  wallet: string;
  setWallet: (wallet: string) => void;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  return (
    <form className="tester-form" aria-label="Invite a tester" noValidate onSubmit={onSubmit}>
      <div className="field">
        <label htmlFor={inputId}>Tester wallet address</label>
        <input
          id={inputId}
          value={wallet}
          spellCheck={false}
          autoComplete="off"
          placeholder="0x…"
          aria-describedby={hintId}
          onChange={(e) => setWallet(e.target.value)}
        />
        <p id={hintId} className="hint">
          0x and 40 hexadecimal digits: the address the tester signs in with.
        </p>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Invite tester
        </button>
      </div>
    </form>
  );
}

/** A tester: wallet, where the invitation stands and since when, and removing or withdrawing it. */
function TesterCard({
  tester: t,
  busy,
  onRemove,
}: {
  tester: Tester;
  busy: boolean;
  onRemove: () => void;
}) {
  return (
    <li className="portal-card">
      <span className="card-title">
        <Address address={t.wallet} />
      </span>
      <span className={`badge tester-${t.state}`}>{STATE_TEXT[t.state]}</span>
      <span className="muted">
        Invited <When iso={t.addedAt} />
        {t.answeredAt !== null && (
          <>
            ; {STATE_TEXT[t.state].toLowerCase()} <When iso={t.answeredAt} />
          </>
        )}
      </span>
      <div className="row-actions">
        <button
          type="button"
          aria-label={
            t.state === 'accepted'
              ? `Remove tester ${checksummed(t.wallet)}`
              : `Withdraw the invitation of ${checksummed(t.wallet)}`
          }
          disabled={busy}
          onClick={onRemove}
        >
          {t.state === 'accepted' ? 'Remove' : 'Withdraw'}
        </button>
      </div>
    </li>
  );
}
