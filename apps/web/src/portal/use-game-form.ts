import { useId, useState, type FormEvent } from 'react';
import type {
  DeveloperGame,
  DeveloperGameRequest,
  DeveloperGameUpdateRequest,
  ScoreDisplay,
} from '@coinop/protocol';
import { errorText } from './parts.js';

/** The arcade refuses larger uploads (2 MB decoded); saying so here saves the round trip. */
const MAX_COVER_BYTES = 2 * 1024 * 1024;
const COVER_TYPES = ['image/png', 'image/jpeg'];
/** The arcade's limit on a score unit, in characters. */
export const SCORE_UNIT_MAX = 12;

export type CoverChoice = 'keep' | 'upload' | 'url' | 'none';

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

export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

/** Registering a game (`game` null) or editing one; `onSubmit` answers with a status to show. */
export type GameFormProps = { submitLabel: string } & (
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
/**
 * The game form's values, cover choice and submit. Registering (`game` null) sends the filled-in
 * fields; editing sends only the changed ones, since name and score display are fixed once
 * registered (spec 4.9) and empty URL or domain fields cannot be sent.
 */
export function useGameForm(props: GameFormProps) {
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
        throw new Error(
          editing
            ? 'Choose a cover image file to upload.'
            : 'Choose a cover image file to upload, or No cover for now.',
        );
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

  const state = { game, submitLabel, values, setValues, cover, setCover, setFile, busy, error };
  return { ...state, status, field, set, submit };
}

export type GameFormState = ReturnType<typeof useGameForm>;
