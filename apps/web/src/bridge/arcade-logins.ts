import type { ReceiveLoginMessage } from '@coinop/protocol';
import type { ArcadeConsent } from './arcade-consent.js';
import { NOT_SIGNED_IN, signedInPlayer, type ArcadeHost } from './arcade-host.js';

/** A CLI login the game's server started (bridge `login`), of this game, approved by the player. */
export async function approveLogin(
  host: ArcadeHost,
  failed: ArcadeConsent['failed'],
  requestorId: string,
  userCode: string,
): Promise<ReceiveLoginMessage> {
  const game = host.game();
  if ((await signedInPlayer(host)) === null) return { approved: false, refusal: NOT_SIGNED_IN };
  try {
    const info = await host.login.info(requestorId, userCode);
    // A game may only sign the player in to itself: its login must name it.
    if (info.game?.id !== game.id) {
      host.tell(`${game.name} asked to sign you in to another game; refused.`, 'error');
      return { approved: false };
    }
    if (info.status !== 'pending') {
      host.tell(`That sign-in is ${info.status}: start it again in the game.`, 'error');
      return { approved: false };
    }
    const decision = await host.login.ask({
      gameName: game.name,
      description: info.description,
      userCode: info.userCode,
      allowance: info.game.published ? await host.login.allowance(game.id) : null,
      canGrantAllowance: info.game.published,
    });
    if (!decision.approved) {
      // The game's server hears "access_denied" at its next poll instead of waiting it out.
      await host.login.reject(requestorId, userCode).catch(() => undefined);
      return { approved: false };
    }
    await host.login.approve(requestorId, userCode, decision.dailyLimit);
    host.changed();
    return { approved: true };
  } catch (error) {
    failed('The sign-in', error);
    return { approved: false };
  }
}
