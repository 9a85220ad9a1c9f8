import type { CliLoginDecision } from '@coinop/protocol';
import { requestJson } from '../api.js';

/** A CLI login as `GET /auth/cli/{requestorId}/info` tells the approval page. */
export interface CliLoginInfo {
  requestorId: string;
  /** Chosen by whoever started the login: shown as text only. */
  description: string;
  game: { id: string; name: string; published: boolean } | null;
  userCode: string;
  status: 'pending' | 'approved' | 'denied' | 'expired';
  expiresAt: string;
}

const loginPath = (requestorId: string) => `/auth/cli/${encodeURIComponent(requestorId)}`;

export function cliLoginInfo(requestorId: string, userCode: string): Promise<CliLoginInfo> {
  return requestJson<CliLoginInfo>(
    `${loginPath(requestorId)}/info?code=${encodeURIComponent(userCode)}`,
  );
}

/** Approves (with an optional daily allowance, HST as typed) or rejects with the web session. */
export function decideCliLogin(
  token: string,
  requestorId: string,
  decision:
    | { approve: true; userCode: string; dailyLimit: string | null }
    | { approve: false; userCode: string },
): Promise<CliLoginDecision> {
  const body =
    decision.approve && decision.dailyLimit !== null
      ? { userCode: decision.userCode, dailyLimit: decision.dailyLimit }
      : { userCode: decision.userCode };
  return requestJson<CliLoginDecision>(
    `${loginPath(requestorId)}/${decision.approve ? 'approve' : 'reject'}`,
    { body, token },
  );
}
