import './demo-page.css';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ScoreDisplay } from '@coinop/protocol';
import {
  DEMO_GAME_ID,
  DEMO_PLAYER,
  DEMO_TIERS,
  createDemoHandlers,
  demoLeaders,
  type DemoBest,
  type DemoScore,
  type DemoState,
} from '../bridge/demo-handlers.js';
import { HostBridge, type BridgeLogEntry } from '../bridge/host-bridge.js';
import { GameFrame } from '../components/game-frame.js';
import { scoreText } from '../components/score.js';
import { navigate, useLocation } from '../router.js';

/** Lines the log keeps, and characters of each payload shown: a flooding game cannot grow them. */
const LOG_MAX = 200;
const PAYLOAD_CHARS_MAX = 1000;
/** A score unit's length in the arcade (docs/reference/developer-portal-api.md#score-unit). */
const SCORE_UNIT_CHARS_MAX = 12;

interface LogLine extends BridgeLogEntry {
  id: number;
  text: string;
}

const ORDER_LABELS: Record<ScoreDisplay, string> = {
  NORMAL: 'Higher is better',
  REVERSE: 'Lower is better',
};

const DIRECTION_LABELS: Record<BridgeLogEntry['direction'], string> = {
  in: 'game → arcade',
  out: 'arcade → game',
  ignored: 'ignored',
  error: 'failed',
};

/**
 * The demo arcade (spec 1.4): `/demo?game=<url>` hosts any game with mock data and approves
 * everything, creating no records (it makes no requests at all), and logs every message.
 * `&scoreDisplay=REVERSE` starts it with a lower-is-better board and `&scoreUnit=ms` shows the
 * scores in a unit, as the game's settings would (the page has a field for each too).
 */
export function DemoPage() {
  const { search } = useLocation();
  const query = new URLSearchParams(search);
  const raw = query.get('game');
  const parsed = raw === null ? null : parseGameUrl(raw);
  const initialOrder: ScoreDisplay = query.get('scoreDisplay') === 'REVERSE' ? 'REVERSE' : 'NORMAL';
  const initialUnit = demoScoreUnit(query.get('scoreUnit') ?? '');

  useEffect(() => {
    document.title = 'Demo arcade · coinop arcade';
    return () => {
      document.title = 'coinop arcade';
    };
  }, []);

  return (
    <>
      <section className="page game-head">
        <h1>Demo arcade</h1>
        <p>
          Try a game&apos;s integration with mock data: every play and payment is approved with a
          made-up id and nothing is recorded. Demo game id: <code>{DEMO_GAME_ID}</code> (any game id
          is accepted).
        </p>
        {parsed !== null && 'error' in parsed && (
          <p role="alert" className="error">
            {parsed.error}
          </p>
        )}
        {(parsed === null || 'error' in parsed) && <GameUrlForm initial={raw ?? ''} />}
      </section>
      {parsed !== null && 'url' in parsed && (
        <DemoHost
          key={parsed.url}
          gameUrl={parsed.url}
          initialOrder={initialOrder}
          initialUnit={initialUnit}
        />
      )}
    </>
  );
}

function DemoHost({
  gameUrl,
  initialOrder,
  initialUnit,
}: {
  gameUrl: string;
  initialOrder: ScoreDisplay;
  initialUnit: string;
}) {
  const [tierId, setTierId] = useState(DEMO_TIERS[0].id);
  const [order, setOrder] = useState<ScoreDisplay>(initialOrder);
  const [unit, setUnit] = useState(initialUnit);
  const [bests, setBests] = useState<ReadonlyMap<string, DemoBest>>(new Map());
  const [lastScore, setLastScore] = useState<DemoScore | null>(null);
  const [log, setLog] = useState<LogLine[]>([]);
  const frameBox = useRef<HTMLDivElement>(null);
  const bridgeRef = useRef<HostBridge | null>(null);
  const tier = DEMO_TIERS.find((t) => t.id === tierId) ?? DEMO_TIERS[0];
  // The bridge reads the page's state through this ref, so a score lands at once.
  const live = useRef<DemoState>({ tier, order, bests });
  live.current = { ...live.current, tier, order };

  useEffect(() => {
    let next = 0;
    setLog([]);
    const bridge = new HostBridge({
      host: window,
      frame: () => frameBox.current?.querySelector('iframe')?.contentWindow ?? null,
      gameUrl,
      handlers: createDemoHandlers(
        () => live.current,
        (score, nextBests) => {
          live.current = { ...live.current, bests: nextBests };
          setBests(nextBests);
          setLastScore(score);
        },
      ),
      onLog: (entry) => {
        const line = { ...entry, id: next++, text: payloadText(entry.payload) };
        setLog((lines) => [...lines, line].slice(-LOG_MAX));
      },
    });
    bridgeRef.current = bridge;
    return () => {
      bridgeRef.current = null;
      bridge.close();
    };
  }, [gameUrl]);

  // A game that asked to be told the tier hears of each change.
  useEffect(() => {
    bridgeRef.current?.tierChanged();
  }, [tierId]);

  const leaders = demoLeaders(tier, order, bests.get(tier.id));
  const scoredTier = DEMO_TIERS.find((t) => t.id === lastScore?.tierId);
  return (
    <>
      <section className="page game-head demo-host">
        {new URL(gameUrl).origin === window.location.origin && (
          <p role="alert" className="error">
            This game is on the arcade&apos;s own origin, so it runs sandboxed in an opaque origin
            and the bridge cannot answer it. Serve it from another host or port.
          </p>
        )}
        <DemoSettings
          tierId={tierId}
          setTierId={setTierId}
          order={order}
          setOrder={setOrder}
          unit={unit}
          setUnit={setUnit}
        />
        <p role="status" aria-live="polite" data-testid="demo-score">
          {lastScore !== null &&
            `Submitted score ${scoreText(lastScore.score, demoScoreUnit(unit))} on ${scoredTier?.name ?? lastScore.tierId}: ` +
              (lastScore.isBest
                ? `your best there, ranked #${lastScore.rank} on the mock board.`
                : `not better than your best there, which ranks #${lastScore.rank}.`)}
        </p>
        <DemoLeaders tier={tier} order={order} leaders={leaders} unit={unit} />
        <MessageLog log={log} />
      </section>
      <div ref={frameBox}>
        <GameFrame url={gameUrl} title="Game under test (demo)" />
      </div>
    </>
  );
}

/** The mock arcade's settings: the tier played, and the game's score order and unit. */
function DemoSettings({
  tierId,
  setTierId,
  order,
  setOrder,
  unit,
  setUnit,
}: {
  tierId: string;
  setTierId: (id: string) => void;
  order: ScoreDisplay;
  setOrder: (order: ScoreDisplay) => void;
  unit: string;
  setUnit: (unit: string) => void;
}) {
  const tierSelectId = useId();
  const orderSelectId = useId();
  const unitInputId = useId();
  return (
    <div className="demo-settings">
      <div className="field">
        <label htmlFor={tierSelectId}>Leaderboard tier</label>
        <select id={tierSelectId} value={tierId} onChange={(e) => setTierId(e.target.value)}>
          {DEMO_TIERS.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} — {t.costHst} HST per play (mock)
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={orderSelectId}>Score order (the game&apos;s setting)</label>
        <select
          id={orderSelectId}
          value={order}
          onChange={(e) => setOrder(e.target.value === 'REVERSE' ? 'REVERSE' : 'NORMAL')}
        >
          {(['NORMAL', 'REVERSE'] as const).map((value) => (
            <option key={value} value={value}>
              {ORDER_LABELS[value]} ({value})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={unitInputId}>Score unit (the game&apos;s setting, optional)</label>
        <input
          id={unitInputId}
          value={unit}
          placeholder="ms, pts, in a row"
          maxLength={SCORE_UNIT_CHARS_MAX}
          onChange={(e) => setUnit(e.target.value)}
        />
      </div>
    </div>
  );
}

/** The mock board of the chosen tier, the demo player's row marked. */
function DemoLeaders({
  tier,
  order,
  leaders,
  unit,
}: {
  tier: (typeof DEMO_TIERS)[number];
  order: ScoreDisplay;
  leaders: ReturnType<typeof demoLeaders>;
  unit: string;
}) {
  return (
    <section aria-labelledby="demo-leaders-heading" className="leaders">
      <h2 id="demo-leaders-heading">
        Leaders: {tier.name} ({ORDER_LABELS[order].toLowerCase()})
      </h2>
      <ol data-testid="demo-leaders">
        {leaders.map((leader) => {
          const mine = leader.userId === DEMO_PLAYER.userId;
          return (
            <li key={leader.txid} data-mine={mine || undefined}>
              <span className="leader-name">
                {mine ? <strong>{leader.displayName}</strong> : leader.displayName}
              </span>
              <span className="leader-score">{scoreText(leader.score, demoScoreUnit(unit))}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** Every message between the game and the mock arcade, newest last. */
function MessageLog({ log }: { log: readonly LogLine[] }) {
  return (
    <section aria-labelledby="demo-log-heading">
      <h2 id="demo-log-heading">Messages</h2>
      <div className="demo-log" role="region" aria-label="Message log" tabIndex={0}>
        {log.length === 0 && <p className="muted">No messages yet.</p>}
        <ol aria-live="polite">
          {log.map((line) => (
            <li key={line.id} data-direction={line.direction}>
              <strong>{DIRECTION_LABELS[line.direction]}</strong> <code>{line.type}</code>
              <pre>{line.text}</pre>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}

function GameUrlForm({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  const inputId = useId();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    navigate(`/demo?game=${encodeURIComponent(value.trim())}`);
  };
  return (
    <form onSubmit={onSubmit} className="field">
      <label htmlFor={inputId}>Game URL</label>
      <input
        id={inputId}
        type="url"
        required
        placeholder="http://127.0.0.1:5173/"
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <button type="submit">Open in the demo arcade</button>
    </form>
  );
}

/** A score unit as typed or given in the query: trimmed, and no longer than the arcade allows. */
export function demoScoreUnit(raw: string): string {
  return raw.trim().slice(0, SCORE_UNIT_CHARS_MAX).trim();
}

/** Only web pages can be hosted: http or https, absolute. */
export function parseGameUrl(raw: string): { url: string } | { error: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: 'The game URL is not a valid absolute URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { error: `The game URL must start with http:// or https://, not ${url.protocol}` };
  }
  return { url: url.href };
}

/** Payload as plain text (rendered as text, never HTML), bounded in length. */
function payloadText(payload: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(payload) ?? String(payload);
  } catch {
    text = String(payload);
  }
  return text.length > PAYLOAD_CHARS_MAX ? `${text.slice(0, PAYLOAD_CHARS_MAX)}…` : text;
}
