import type { ScoreDisplay } from '@coinop/protocol';
import { ErrorAlert, Status } from './parts.js';
import {
  SCORE_UNIT_MAX,
  useGameForm,
  type CoverChoice,
  type GameFormProps,
  type GameFormState,
} from './use-game-form.js';

/**
 * The fields of a game. Registering (`game` null) sends the filled-in fields; editing sends only
 * the changed ones, since name and score display are fixed once registered (spec 4.9) and empty
 * URL or domain fields cannot be sent.
 */
export function GameForm(props: GameFormProps) {
  const form = useGameForm(props);
  const { submit, error, status, busy, submitLabel } = form;
  return (
    <form className="game-form" onSubmit={(event) => void submit(event)}>
      <FixedFields form={form} />
      <ShowcaseFields form={form} />
      <HostingFields form={form} />
      <CoverFields form={form} />
      <ErrorAlert error={error} />
      <Status text={status} />
      <div className="form-actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
      </div>
    </form>
  );
}

/** Name and score display: chosen when registering, shown as facts once registered. */
function FixedFields({ form }: { form: GameFormState }) {
  const { game, field, values, set, setValues } = form;
  const editing = game !== null;
  return editing ? (
    <dl className="fixed-facts">
      <dt>Name</dt>
      <dd>{game.name}</dd>
      <dt>Score display</dt>
      <dd>{scoreDisplayText(game.scoreDisplay)}</dd>
    </dl>
  ) : (
    <>
      <div className="field">
        <label htmlFor={field('name')}>Name</label>
        <input
          id={field('name')}
          required
          maxLength={100}
          value={values.name}
          onChange={set('name')}
          aria-describedby={`${field('name')}-hint`}
        />
        <p id={`${field('name')}-hint`} className="hint">
          Fixed once registered.
        </p>
      </div>
      <fieldset className="field">
        <legend>Score display</legend>
        <p className="hint">How scores rank on the leaderboards; fixed once registered.</p>
        {(['NORMAL', 'REVERSE'] as const).map((value) => (
          <label key={value} className="radio">
            <input
              type="radio"
              name={field('scoreDisplay')}
              value={value}
              checked={values.scoreDisplay === value}
              onChange={() => setValues((v) => ({ ...v, scoreDisplay: value }))}
            />
            {scoreDisplayText(value)}
          </label>
        ))}
      </fieldset>
    </>
  );
}

/** What players read about the game: its score unit, description, category and credits. */
function ShowcaseFields({ form }: { form: GameFormState }) {
  const { field, values, set } = form;
  return (
    <>
      <div className="field">
        <label htmlFor={field('scoreUnit')}>Score unit</label>
        <input
          id={field('scoreUnit')}
          maxLength={SCORE_UNIT_MAX}
          placeholder="ms"
          spellCheck={false}
          autoComplete="off"
          value={values.scoreUnit}
          onChange={set('scoreUnit')}
          aria-describedby={`${field('scoreUnit')}-hint`}
        />
        <p id={`${field('scoreUnit')}-hint`} className="hint">
          Shown after every score in the arcade, e.g. “109 ms”: ms, s, pts… Up to {SCORE_UNIT_MAX}{' '}
          characters of plain text; leave empty for none.
        </p>
      </div>
      <div className="field">
        <label htmlFor={field('description')}>Description</label>
        <textarea
          id={field('description')}
          rows={3}
          maxLength={2000}
          value={values.description}
          onChange={set('description')}
        />
      </div>
      <div className="field">
        <label htmlFor={field('category')}>Category</label>
        <input
          id={field('category')}
          maxLength={50}
          value={values.category}
          onChange={set('category')}
        />
      </div>
      <div className="field">
        <label htmlFor={field('tagLine')}>Tag line</label>
        <input
          id={field('tagLine')}
          maxLength={200}
          value={values.tagLine}
          onChange={set('tagLine')}
        />
      </div>
      <div className="field">
        <label htmlFor={field('developerInfo')}>Developer info</label>
        <textarea
          id={field('developerInfo')}
          rows={2}
          maxLength={2000}
          value={values.developerInfo}
          onChange={set('developerInfo')}
        />
      </div>
    </>
  );
}

/** Where the game runs: its URL and production domain. */
function HostingFields({ form }: { form: GameFormState }) {
  const { field, values, set } = form;
  return (
    <>
      <div className="field">
        <label htmlFor={field('url')}>Game URL</label>
        <input
          id={field('url')}
          type="url"
          inputMode="url"
          placeholder="https://game.example.com/"
          maxLength={2048}
          value={values.url}
          onChange={set('url')}
          aria-describedby={`${field('url')}-hint`}
        />
        <p id={`${field('url')}-hint`} className="hint">
          Where the game is hosted; the arcade shows it in a frame.
        </p>
      </div>
      <div className="field">
        <label htmlFor={field('prodDomain')}>Production domain</label>
        <input
          id={field('prodDomain')}
          placeholder="game.example.com"
          maxLength={253}
          value={values.prodDomain}
          onChange={set('prodDomain')}
          aria-describedby={`${field('prodDomain')}-hint`}
        />
        <p id={`${field('prodDomain')}-hint`} className="hint">
          The domain the game runs on in production; needed before it goes live.
        </p>
      </div>
    </>
  );
}

/** The cover: kept, uploaded, linked, or none yet. */
function CoverFields({ form }: { form: GameFormState }) {
  const { game, field, values, set, cover, setCover, setFile } = form;
  const editing = game !== null;
  return (
    <fieldset className="field">
      <legend>Cover image</legend>
      <p className="hint" id={`${field('coverUrl')}-hint`}>
        A 1920×1080 PNG or JPEG (at most 2 MB to upload); the arcade checks the size.
      </p>
      {editing && game.coverUrl !== '' && (
        <img className="cover cover-preview" src={game.coverUrl} alt="Current cover" />
      )}
      {!editing && cover === 'none' && (
        <p className="hint">Players see a tile with the game&apos;s initial until you add one.</p>
      )}
      {(editing ? (['keep', 'upload', 'url'] as const) : (['upload', 'url', 'none'] as const)).map(
        (choice) => (
          <label key={choice} className="radio">
            <input
              type="radio"
              name={field('cover')}
              value={choice}
              checked={cover === choice}
              onChange={() => setCover(choice)}
            />
            {choice === 'keep' && game?.coverUrl === ''
              ? 'No cover for now'
              : COVER_CHOICES[choice]}
          </label>
        ),
      )}
      {cover === 'upload' && (
        <>
          <label htmlFor={field('coverFile')}>Cover image file</label>
          <input
            id={field('coverFile')}
            type="file"
            accept="image/png,image/jpeg"
            aria-describedby={`${field('coverUrl')}-hint`}
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </>
      )}
      {cover === 'url' && (
        <>
          <label htmlFor={field('coverUrl')}>Cover image URL</label>
          <input
            id={field('coverUrl')}
            type="url"
            inputMode="url"
            placeholder="https://game.example.com/cover.png"
            value={values.coverUrl}
            onChange={set('coverUrl')}
            aria-describedby={`${field('coverUrl')}-hint`}
          />
        </>
      )}
    </fieldset>
  );
}

const COVER_CHOICES: Record<CoverChoice, string> = {
  keep: 'Keep the current cover',
  upload: 'Upload a file',
  url: 'Link to an image URL',
  none: 'No cover for now',
};

export function scoreDisplayText(value: ScoreDisplay): string {
  return value === 'NORMAL'
    ? 'Normal: higher is better (points)'
    : 'Reverse: lower is better (times, strokes)';
}
