import { useId, useState, type FormEvent } from 'react';
import type {
  DeveloperGame,
  DeveloperGameRequest,
  DeveloperGameUpdateRequest,
  ScoreDisplay,
} from '@coinop/protocol';
import { ErrorAlert, Status, errorText } from './parts.js';

/** The arcade refuses larger uploads (2 MB decoded); saying so here saves the round trip. */
const MAX_COVER_BYTES = 2 * 1024 * 1024;
const COVER_TYPES = ['image/png', 'image/jpeg'];
/** The arcade's limit on a score unit, in characters. */
const SCORE_UNIT_MAX = 12;

type CoverChoice = 'keep' | 'upload' | 'url' | 'none';

interface Values {
  name: string;
  description: string;
  category: string;
  tagLine: string;
  developerInfo: string;
  scoreDisplay: ScoreDisplay;
  scoreUnit: string;
  url: string;
  prodDomain: string;
  coverUrl: string;
}

function initialValues(game: DeveloperGame | null): Values {
  return {
    name: game?.name ?? '',
    description: game?.description ?? '',
    category: game?.category ?? '',
    tagLine: game?.tagLine ?? '',
    developerInfo: game?.developerInfo ?? '',
    scoreDisplay: game?.scoreDisplay ?? 'NORMAL',
    scoreUnit: game?.scoreUnit ?? '',
    url: game?.url ?? '',
    prodDomain: game?.prodDomain ?? '',
    coverUrl: '',
  };
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

/** Registering a game (`game` null) or editing one; `onSubmit` answers with a status to show. */
type GameFormProps = { submitLabel: string } & (
  | { game: null; onSubmit: (fields: DeveloperGameRequest) => Promise<string | null> }
  | {
      game: DeveloperGame;
      onSubmit: (fields: DeveloperGameUpdateRequest) => Promise<string | null>;
    }
);

/**
 * The fields of a game. Registering (`game` null) sends the filled-in fields; editing sends only
 * the changed ones, since name and score display are fixed once registered (spec 4.9) and empty
 * URL or domain fields cannot be sent.
 */
export function GameForm(props: GameFormProps) {
  const { game, submitLabel } = props;
  const editing = game !== null;
  const [values, setValues] = useState<Values>(() => initialValues(game));
  const [cover, setCover] = useState<CoverChoice>(editing ? 'keep' : 'upload');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const id = useId();
  const field = (name: string) => `${id}-${name}`;
  const set = (name: keyof Values) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [name]: event.target.value }));

  /** The fields a game may change: all of them when registering, the changed ones when editing. */
  const mutableFieldsToSend = async (): Promise<DeveloperGameUpdateRequest> => {
    const fields: DeveloperGameUpdateRequest = {};
    const initial = initialValues(game);
    const text = ['description', 'category', 'tagLine', 'developerInfo'] as const;
    for (const name of text) {
      if (!editing || values[name] !== initial[name]) fields[name] = values[name];
    }
    // The unit may be cleared (empty means none); the API refuses spaces around it.
    const unit = values.scoreUnit.trim();
    if (editing ? unit !== initial.scoreUnit : unit !== '') fields.scoreUnit = unit;
    // The API takes a URL and a domain or nothing: an empty field leaves them as they are.
    for (const name of ['url', 'prodDomain'] as const) {
      const value = values[name].trim();
      if (value !== '' && value !== initial[name]) fields[name] = value;
    }
    if (cover === 'url') {
      if (values.coverUrl.trim() === '') throw new Error('Enter the cover image URL.');
      fields.coverUrl = values.coverUrl.trim();
    }
    if (cover === 'upload') {
      if (file === null) {
        if (editing) throw new Error('Choose a cover image file to upload.');
      } else {
        if (!COVER_TYPES.includes(file.type)) {
          throw new Error(`The cover must be a PNG or JPEG image; ${file.name} is not.`);
        }
        if (file.size > MAX_COVER_BYTES) {
          throw new Error(`The cover must be at most 2 MB; ${file.name} is larger.`);
        }
        fields.coverImage = await readAsDataUrl(file);
      }
    }
    return fields;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      const fields = await mutableFieldsToSend();
      if (props.game === null) {
        const { name, scoreDisplay } = values;
        setStatus(await props.onSubmit({ name: name.trim(), scoreDisplay, ...fields }));
      } else {
        if (Object.keys(fields).length === 0) {
          setStatus('Nothing changed.');
          return;
        }
        setStatus(await props.onSubmit(fields));
        setFile(null);
        setCover('keep');
        setValues((v) => ({ ...v, coverUrl: '' }));
      }
    } catch (e) {
      setError(`${editing ? 'Could not save' : 'Could not register the game'}: ${errorText(e)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="game-form" onSubmit={(event) => void submit(event)}>
      {editing ? (
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
      )}
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
      <fieldset className="field">
        <legend>Cover image</legend>
        <p className="hint" id={`${field('coverUrl')}-hint`}>
          A 1920×1080 PNG or JPEG (at most 2 MB to upload); the arcade checks the size.
        </p>
        {editing && game.coverUrl !== '' && (
          <img className="cover cover-preview" src={game.coverUrl} alt="Current cover" />
        )}
        {(editing
          ? (['keep', 'upload', 'url'] as const)
          : (['upload', 'url', 'none'] as const)
        ).map((choice) => (
          <label key={choice} className="radio">
            <input
              type="radio"
              name={field('cover')}
              value={choice}
              checked={cover === choice}
              onChange={() => setCover(choice)}
            />
            {COVER_CHOICES[choice]}
          </label>
        ))}
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
