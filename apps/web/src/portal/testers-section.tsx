import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { DeveloperGame, Tester } from '@coinop/protocol';
import { ErrorAlert, Status, When, errorText, usePortalApi } from './parts.js';

/** A wallet address as the arcade takes it: 0x and 40 hexadecimal digits. */
const WALLET = /^0x[0-9a-fA-F]{40}$/;

/**
 * The game's testers (docs/concepts/consent.md): before the operator publishes the game, its
 * server may charge only the developer's own wallet and these.
 */
export function TestersSection({ game }: { game: DeveloperGame }) {
  const api = usePortalApi();
  const inputId = useId();
  const hintId = useId();
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
      setStatus(`Tester ${added.wallet} added.`);
      await reload();
    } catch (e) {
      setError(`Could not add the tester: ${errorText(e)}`);
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
      setStatus(`Tester ${tester.wallet} removed.`);
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
        testers you name here; nobody else.
        {game.published &&
          ' The game is published: every player now decides what it may charge them with their own daily allowance, so testers no longer matter.'}
      </p>
      <form
        className="tester-form"
        aria-label="Add a tester"
        noValidate
        onSubmit={(e) => void add(e)}
      >
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
            Add tester
          </button>
        </div>
      </form>
      <ErrorAlert error={error} />
      <Status text={status} />
      {testers === null ? (
        error === null && <p role="status">Loading…</p>
      ) : testers.length === 0 ? (
        <p>No testers yet: only your own wallet can be charged before the game is published.</p>
      ) : (
        <ul className="portal-list" aria-label="Testers">
          {testers.map((t) => (
            <li key={t.wallet} className="portal-card">
              <span className="card-title mono">{t.wallet}</span>
              <span className="muted">
                Added <When iso={t.addedAt} />
              </span>
              <div className="row-actions">
                <button
                  type="button"
                  aria-label={`Remove tester ${t.wallet}`}
                  disabled={busy}
                  onClick={() => void remove(t)}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
