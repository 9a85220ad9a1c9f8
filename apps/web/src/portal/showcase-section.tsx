import '../components/discovery.css';
import { useCallback, useEffect, useId, useState, type FormEvent } from 'react';
import type { DeveloperGame, GameScreenshot } from '@coinop/protocol';
import { ErrorAlert, Status, errorText, usePortalApi } from './parts.js';
import { readAsDataUrl } from './use-game-form.js';

/** The most screenshots a game shows (the server's SCREENSHOTS_MAX). */
const SCREENSHOTS_MAX = 8;

/** The shapes most games have; a developer's other shape stays offered as it is. */
const SHAPES: readonly { value: string; label: string }[] = [
  { value: '', label: "The arcade's default (as tall as the window)" },
  { value: '16:9', label: '16:9 landscape' },
  { value: '4:3', label: '4:3' },
  { value: '1:1', label: '1:1 square' },
  { value: '3:4', label: '3:4' },
  { value: '9:16', label: '9:16 portrait (phone)' },
];

/**
 * How the game shows in the arcade (issue 31): the shape of its frame, which the game page keeps
 * within the player's window, and the screenshots on its page.
 */
export function ShowcaseSection({
  game,
  onSaved,
}: {
  game: DeveloperGame;
  onSaved: (game: DeveloperGame) => void;
}) {
  return (
    <section className="portal-section" aria-labelledby="showcase-heading">
      <h2 id="showcase-heading">Frame and screenshots</h2>
      <FrameShapeForm game={game} onSaved={onSaved} />
      <ScreenshotsManager gameId={game.id} />
    </section>
  );
}

function FrameShapeForm({
  game,
  onSaved,
}: {
  game: DeveloperGame;
  onSaved: (game: DeveloperGame) => void;
}) {
  const api = usePortalApi();
  const id = useId();
  const [shape, setShape] = useState(game.aspectRatio ?? '');
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const shapes = SHAPES.some((s) => s.value === shape)
    ? SHAPES
    : [...SHAPES, { value: shape, label: shape }];

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setStatus(null);
    try {
      onSaved(await api.updateGame(game.id, { aspectRatio: shape === '' ? null : shape }));
      setStatus(
        shape === '' ? "The frame keeps the arcade's default size." : `The frame keeps ${shape}.`,
      );
    } catch (e) {
      setError(`Could not save the frame's shape: ${errorText(e)}`);
    }
  };

  return (
    <form aria-label="The game’s frame" onSubmit={(e) => void save(e)}>
      <div className="field">
        <label htmlFor={id}>Frame shape</label>
        <select
          id={id}
          value={shape}
          onChange={(e) => setShape(e.target.value)}
          aria-describedby={`${id}-hint`}
        >
          {shapes.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </select>
        <p id={`${id}-hint`} className="hint">
          The game page sizes your game&apos;s frame to this shape, as large as the player&apos;s
          window allows, on a phone and on a laptop alike.
        </p>
      </div>
      <div className="form-actions">
        <button type="submit" className="primary">
          Save the shape
        </button>
      </div>
      <ErrorAlert error={error} />
      <Status text={status} />
    </form>
  );
}

function ScreenshotsManager({ gameId }: { gameId: string }) {
  const api = usePortalApi();
  const [shots, setShots] = useState<readonly GameScreenshot[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  const reload = useCallback(
    async () => setShots(await api.listScreenshots(gameId)),
    [api, gameId],
  );
  useEffect(() => {
    reload().catch((e: unknown) => setError(`Could not load the screenshots: ${errorText(e)}`));
  }, [reload]);

  /** Runs one change, then reads the list again; says how it went. */
  const act = async (work: () => Promise<string>): Promise<boolean> => {
    setError(null);
    setStatus(null);
    setBusy(true);
    try {
      const done = await work();
      // Said once the list shows it: the confirmation and the list must not disagree.
      try {
        await reload();
      } finally {
        setStatus(done);
      }
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const full = shots !== null && shots.length >= SCREENSHOTS_MAX;
  return (
    <>
      <h3>Screenshots</h3>
      <p className="muted">
        Up to {SCREENSHOTS_MAX}, shown on the game&apos;s page in the order you add them: 1920×1080
        PNG or JPEG, at most 2 MB each.
      </p>
      {shots !== null && shots.length > 0 && (
        <ul className="portal-list screenshot-list" aria-label="Screenshots">
          {shots.map((shot, i) => (
            <li key={shot.id} className="portal-card">
              <img src={shot.url} alt={shot.alt} width={160} height={90} />
              <span>
                {i + 1}. {shot.alt}
              </span>
              <div className="row-actions">
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`Delete screenshot ${i + 1}: ${shot.alt}`}
                  onClick={() =>
                    void act(async () => {
                      await api.deleteScreenshot(gameId, shot.id);
                      return 'Screenshot deleted.';
                    })
                  }
                >
                  Delete
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      {full ? (
        <p>This game shows the most screenshots it may: delete one to add another.</p>
      ) : (
        <AddScreenshotForm
          busy={busy}
          onError={setError}
          onAdd={(body) =>
            act(async () => {
              await api.addScreenshot(gameId, body);
              return 'Screenshot added.';
            })
          }
        />
      )}
      <ErrorAlert error={error} />
      <Status text={status} />
    </>
  );
}

/** Choosing an image and describing it; the form starts afresh after an upload. */
function AddScreenshotForm({
  busy,
  onError,
  onAdd,
}: {
  busy: boolean;
  onError: (error: string) => void;
  onAdd: (body: { image: string; alt: string }) => Promise<boolean>;
}) {
  const fileId = useId();
  const altId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  // A new key clears the file input, which React does not control.
  const [formKey, setFormKey] = useState(0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (file === null || alt.trim() === '') {
      onError('Choose a 1920×1080 PNG or JPEG, and say what it shows.');
      return;
    }
    if (await onAdd({ image: await readAsDataUrl(file), alt: alt.trim() })) {
      setAlt('');
      setFile(null);
      setFormKey((k) => k + 1);
    }
  };

  return (
    <form key={formKey} aria-label="Add a screenshot" noValidate onSubmit={(e) => void submit(e)}>
      <div className="field">
        <label htmlFor={fileId}>Image</label>
        <input
          id={fileId}
          type="file"
          accept="image/png,image/jpeg"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
      </div>
      <div className="field">
        <label htmlFor={altId}>What it shows</label>
        <input
          id={altId}
          value={alt}
          maxLength={200}
          placeholder="The third level, mid-jump"
          onChange={(e) => setAlt(e.target.value)}
        />
      </div>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          Add screenshot
        </button>
      </div>
    </form>
  );
}
