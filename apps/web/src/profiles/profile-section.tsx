import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import {
  checkDisplayName,
  DISPLAY_NAME_MAX_CHARS,
  DISPLAY_NAME_MIN_CHARS,
  DISPLAY_NAME_PROBLEMS,
  type DisplayNameProblem,
  normalizeDisplayName,
} from '@coinop/protocol';
import { Avatar } from '../components/avatar.js';
import { ErrorAlert, Status } from '../portal/parts.js';
import { Link } from '../router.js';
import { useSession } from '../session/session.js';
import './profiles.css';
import { profileApi } from './profiles-api.js';

/** The avatar limits the server checks (docs/concepts/profiles.md), told before an upload. */
const AVATAR_MAX_BYTES = 512 * 1024;
const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const NAME_RULES =
  `${DISPLAY_NAME_MIN_CHARS} to ${DISPLAY_NAME_MAX_CHARS} letters or digits of any script, ` +
  'spaces, _ - and . — not starting with 0x, and not a name someone else has in any letter case.';

/**
 * The account page's Profile: the display name (its rules said as the player types) and the
 * avatar (upload, or back to the generated one), as everyone sees them.
 */
export function ProfileSection({
  player,
}: {
  player: { playerId: string; name: string; avatar: string };
}) {
  const session = useSession();
  const api = useMemo(() => profileApi(session.call), [session.call]);
  const [name, setName] = useState(typedName(player.name));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  // The name saved (here, or in another tab on refresh) is what the field starts from again.
  useEffect(() => setName(typedName(player.name)), [player.name]);
  const changed = normalizeDisplayName(name) !== typedName(player.name);
  const problem = changed ? checkDisplayName(name) : null;

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      setStatus(await work());
      await session.refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const saveName = (event: FormEvent) => {
    event.preventDefault();
    if (problem !== null || !changed) return;
    void run(async () => {
      const saved = await api.setName(name);
      setName(saved.name);
      return `Your name is ${saved.name} now, on every board.`;
    });
  };
  const upload = (file: File | undefined) => {
    if (file === undefined) return;
    if (!AVATAR_TYPES.includes(file.type) || file.size > AVATAR_MAX_BYTES) {
      setStatus(null);
      setError(`${file.name} is not a PNG, JPEG or WebP picture of at most 512 KiB.`);
      return;
    }
    void run(async () => {
      await api.setAvatar(await dataUrlOf(file));
      return 'Your picture is saved.';
    });
  };

  return (
    <section aria-labelledby="profile-heading" className="profile-section">
      <h2 id="profile-heading">Profile</h2>
      <p className="muted">
        How other players see you on boards and tournaments, and on{' '}
        <Link href={`/players/${encodeURIComponent(player.playerId)}`}>your public page</Link>.
      </p>
      <div className="profile-editor">
        <PictureControls
          player={player}
          busy={busy}
          onUpload={upload}
          onRemove={() =>
            void run(async () => {
              await api.removeAvatar();
              return 'Your picture is removed; you have the generated one again.';
            })
          }
        />
        <form className="profile-name" onSubmit={saveName} noValidate>
          <NameField name={name} placeholder={player.name} problem={problem} onChange={setName} />
          <div className="form-actions">
            <button
              type="submit"
              className="primary"
              disabled={busy || !changed || problem !== null}
            >
              Save name
            </button>
          </div>
        </form>
      </div>
      <ErrorAlert error={error} />
      <Status text={status} />
    </section>
  );
}

/**
 * What the name field starts from: the player's name, or nothing while they go by the arcade's
 * default, their short address (`0xDa59…6651`), which the rules beneath forbid a typed name to
 * look like; the field shows it as its placeholder instead.
 */
function typedName(saved: string): string {
  return checkDisplayName(saved) === null ? saved : '';
}

/** The display name's input, with the rules, or the rule the name breaks, beneath it. */
function NameField({
  name,
  placeholder,
  problem,
  onChange,
}: {
  name: string;
  placeholder: string;
  problem: DisplayNameProblem | null;
  onChange: (name: string) => void;
}) {
  const nameId = useId();
  const hintId = useId();
  return (
    <div className="field">
      <label htmlFor={nameId}>Display name</label>
      <input
        id={nameId}
        value={name}
        placeholder={placeholder}
        maxLength={DISPLAY_NAME_MAX_CHARS * 2}
        autoComplete="nickname"
        spellCheck={false}
        aria-invalid={problem !== null}
        aria-describedby={hintId}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={hintId} className={problem === null ? 'hint' : 'hint field-problem'}>
        {problem === null ? NAME_RULES : DISPLAY_NAME_PROBLEMS[problem]}
      </p>
    </div>
  );
}

/** The avatar's preview, upload and removal. */
function PictureControls({
  player,
  busy,
  onUpload,
  onRemove,
}: {
  player: { playerId: string; avatar: string };
  busy: boolean;
  onUpload: (file: File | undefined) => void;
  onRemove: () => void;
}) {
  const fileId = useId();
  return (
    <div className="profile-picture">
      <Avatar src={player.avatar} playerId={player.playerId} size={96} />
      <input
        id={fileId}
        className="visually-hidden"
        type="file"
        accept={AVATAR_TYPES.join(',')}
        disabled={busy}
        onChange={(e) => {
          onUpload(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
      <label className="button" htmlFor={fileId}>
        Upload a picture
      </label>
      {isUploaded(player.avatar) && (
        <button type="button" disabled={busy} onClick={onRemove}>
          Use the generated picture
        </button>
      )}
      <p className="hint">PNG, JPEG or WebP, square is best, 64 to 2048 pixels, up to 512 KiB.</p>
    </div>
  );
}

/** An uploaded avatar is served by the arcade's catalog; a generated one is an identicon. */
function isUploaded(avatar: string): boolean {
  return avatar.includes('/catalog/players/');
}

function dataUrlOf(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}
