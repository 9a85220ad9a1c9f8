import type { BridgeLeader, ReceiveHstTransferMessage } from '@coinop/protocol';

export type {
  BridgeLeader,
  BridgeReply,
  BridgeRequest,
  ReceiveHstTransferMessage,
  ReceiveLeaderboardMessage,
  ReceivePlayMessage,
  BridgeTier,
  BoardEntry,
  ReceiveBoardAroundMessage,
  ReceiveBoardPageMessage,
  ReceiveBoardUpdateMessage,
  SendBoardUpdateMessage,
  SendBoardAroundMessage,
  SendBoardPageMessage,
  ReceiveLoginMessage,
  ReceiveSubmitScoreMessage,
  ReceiveTierChangeMessage,
  SendLeaderboardMessage,
  SendLoginMessage,
  SendTierChangeMessage,
  SendPlayMessage,
  SendScoreMessage,
  SendTransferHstMessage,
} from '@coinop/protocol';

/**
 * `haste-arcade-sdk`'s name for one leader, so a game switching libraries keeps its imports.
 *
 * @example
 * ```ts
 * import type { Leaderboard } from '@coinop/game-sdk';
 * const leader: Leaderboard = { txid: 'play-1', userId: 'player-1', score: 4200 };
 * ```
 */
export type Leaderboard = BridgeLeader;

/**
 * `haste-arcade-sdk`'s name for the transfer reply data.
 *
 * @example
 * ```ts
 * import type { ReceiveTransferHstMessage } from '@coinop/game-sdk';
 * const paid: ReceiveTransferHstMessage = { txid: 'tx-1' };
 * ```
 */
export type ReceiveTransferHstMessage = ReceiveHstTransferMessage;
