import type { BridgeLeader, Game, ScoreResult } from '@coinop/protocol';
import type { PlayableTier } from './playable-tier.js';
import type { WalletSigner } from '../session/wallets.js';
import type { LoginHost } from './login-approval.js';
import type { WalletPlayProgress } from './wallet-play-progress.js';
import type { ChainWalletOfPlayer, WalletPlayOption } from './wallet-play-option.js';

/** What the player is asked to approve in a dialog; a score needs only the wallet's signature. */
export type ApprovalPrompt =
  | {
      kind: 'play';
      gameName: string;
      tier: PlayableTier;
      /** Set when the tier is a tournament round: its fees go to the round's prize pool. */
      tournament?: { name: string; endsAt: string };
      /** The player's spendable HST in base units. */
      balanceUnits: bigint;
      /** Null outside chain mode, or without a wallet on the chain: the balance only. */
      wallet: WalletPlayOption | null;
    }
  | { kind: 'purchase'; gameName: string; amountUnits: bigint; balanceUnits: bigint };

/** The player's answer: no, or yes paying from the arcade balance or from the wallet. */
export type ApprovalDecision = 'rejected' | 'balance' | 'wallet';

/** What the page tells the player about their score. */
export type ScoreOutcome = Pick<ScoreResult, 'score' | 'leaderRank' | 'isWinner'>;

/** A paid play the page opened for its game: open until scored or its time runs out. */
export interface OpenedPlay {
  id: string;
  tierName: string;
  costUnits: bigint;
  /** When it ends unscored (server time); null when the page was not told (a wallet lock). */
  expiresAt: string | null;
}

/** What the game is told, and the player shown, when a signed-out player's request is refused. */
export const NOT_SIGNED_IN = 'Not signed in: connect a wallet in the arcade first.';

/**
 * The player a game's play, payment or sign-in is for. A signed-out player is asked to connect
 * first, as the header's Connect would, and the request goes on once they have; null when they
 * closed the dialog without connecting: they are told `NOT_SIGNED_IN`, which the caller answers
 * the game with as its `refusal`.
 */
export async function signedInPlayer(host: ArcadeHost): Promise<ArcadePlayer | null> {
  const player = host.player() ?? ((await host.signIn()) ? host.player() : null);
  if (player === null) host.tell(NOT_SIGNED_IN, 'error');
  return player;
}

/** The signed-in player as the bridge knows them: their spendable HST in base units. */
export interface ArcadePlayer {
  id: string;
  signer: WalletSigner | null;
  balanceUnits: bigint;
}

/** The page around the bridge: who plays, what they chose, and how to ask and tell them. */
export interface ArcadeHost {
  game(): Pick<Game, 'id' | 'name'>;
  /** The tier (or tournament round) chosen on the page, its cost exact. */
  tier(): PlayableTier | undefined;
  /** The signed-in player with their spendable HST in base units, or null. */
  player(): ArcadePlayer | null;
  /**
   * Opens the wallet connect dialog for a signed-out player (the header's own); true once they
   * are signed in, false when they closed it without connecting.
   */
  signIn(): Promise<boolean>;
  /** Shows the approval dialog; how the player answered. */
  ask(prompt: ApprovalPrompt): Promise<ApprovalDecision>;
  /** A JSON POST to `/api{path}` with the player's token. */
  post<T>(path: string, body: unknown): Promise<T>;
  /** A GET of `/api{path}` with the player's token. */
  get<T>(path: string): Promise<T>;
  /** The player's wallet and the chain, in chain mode with a signed-in wallet; else null. */
  chainWallet(): ChainWalletOfPlayer | null;
  /** Shows how a play locked from the wallet is going. */
  walletProgress(progress: WalletPlayProgress): void;
  /** Aborted when the page leaves the game: work in flight stops, nothing more is answered. */
  signal: AbortSignal;
  /** The chosen tier's current leaders, read afresh. */
  leaders(): Promise<BridgeLeader[]>;
  tell(message: string, tone: 'info' | 'error'): void;
  /** The game got a paid play: the page asks before it is left while the play is open. */
  playOpened(play: OpenedPlay): void;
  /** The game scored a play: it is no longer open. */
  playScored(playId: string): void;
  /** Money moved or a score landed: read the balance and leaders again. */
  changed(score?: ScoreOutcome): void;
  /**
   * The game read its board (`boardPage`, `boardAround`): its own server may have scored, so the
   * page's leaders and balance are read again (once for a burst of reads).
   */
  boardRead(): void;
  /** Reads and approves the CLI logins a game's server started (bridge `login`). */
  login: LoginHost;
}
