import type { HostBridgeHandlers } from './host-bridge.js';
import type { ArcadeHost } from './arcade-host.js';
import { arcadeConsent } from './arcade-consent.js';
import { readBoardAround, readBoardPage } from './arcade-boards.js';
import { approveLogin } from './arcade-logins.js';
import { payHst } from './arcade-payments.js';
import { openPlay, submitScore } from './arcade-plays.js';

/**
 * The real arcade's answers to a hosted game (spec 4.10): a play or a payment happens only after
 * the player approves it in a dialog AND their wallet signs the approval message, which the API
 * checks and records; a score is signed by the wallet and submitted. In chain mode the player may
 * instead lock a play from their wallet on chain, the wallet's transaction being the consent; the
 * game then gets the lock's transaction hash as `txid` beside `playId`. A play or payment that is
 * not approved, not signed or not affordable is answered without `playId`/`txid`, so the game
 * does not start or provision anything.
 */
export function createArcadeHandlers(host: ArcadeHost): HostBridgeHandlers {
  const consent = arcadeConsent(host);
  return {
    play: () => openPlay(host, consent),
    submitScore: (playId, score, request) =>
      submitScore(host, consent, playId, score, request.replay),
    getLeaderboard: () => host.leaders(),
    tier() {
      const tier = host.tier();
      return (
        tier && {
          id: tier.id,
          name: tier.name,
          cost: tier.cost,
          currency: tier.currency,
          formattedCostString: tier.formattedCostString,
        }
      );
    },
    approveLogin: (requestorId, userCode) =>
      approveLogin(host, consent.failed, requestorId, userCode),
    // Board reads (issue 18) come from the public board routes: a game reads what anyone may,
    // of its own game only, whoever asks; around-me is the signed-in player's place.
    boardPage: (request) => readBoardPage(host, request),
    boardAround: (request) => readBoardAround(host, request),
    hstTransfer: (amount) => payHst(host, consent, amount),
  };
}
