import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoClient, serve, type ServeChild } from './run-cli.js';

/** What the demo seed logs on the start that creates it, and the client it saved. */
async function demoFacts(messages: string[], dataDir: string) {
  const find = (pattern: RegExp) => {
    for (const m of messages) {
      const match = pattern.exec(m);
      if (match) return match;
    }
    throw new Error(`no log line matches ${pattern}:\n${messages.join('\n')}`);
  };
  const { clientId, clientSecret } = await demoClient(dataDir);
  return {
    clientId,
    clientSecret,
    highStakes: find(/High stakes 10 HST \(([0-9a-f-]{36})\)/)[1]!,
    playerId: find(/^demo: player "[^"]+" ([0-9a-f-]{36})/)[1]!,
  };
}

describe('a crash of the server', () => {
  let dataDir: string;
  let server: ServeChild | undefined;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'coinop-crash-'));
  });
  afterAll(async () => {
    server?.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  });

  it('loses no acknowledged play or score (SIGKILL, then restart on the same data)', async () => {
    server = await serve(['--api-port', '0', '--auth-port', '0', '--data-dir', dataDir, '--demo']);
    const demo = await demoFacts(server.messages, dataDir);
    const api = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
      fetch(`${server!.url}${path}`, {
        method: init.method ?? 'GET',
        headers: {
          'content-type': 'application/json',
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });

    const tokenRes = await api('/oauth/writetoken', {
      method: 'POST',
      body: { client_id: demo.clientId, client_secret: demo.clientSecret },
    });
    const {
      access_token: token,
      arcadeId,
      gameId,
    } = (await tokenRes.json()) as Record<string, string>;
    const base = `/arcades/${arcadeId}/games/${gameId}`;
    const play = async () => {
      const res = await api(`${base}/play`, {
        method: 'POST',
        token,
        body: { playerId: demo.playerId, leaderboardId: demo.highStakes },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { id: string }).id;
    };
    const scored = await play();
    const scoreRes = await api(`${base}/score`, {
      method: 'POST',
      token,
      body: { playId: scored, leaderboardId: demo.highStakes, score: 0.25 },
    });
    expect(scoreRes.status).toBe(200);
    const open = await play();

    server.child.kill('SIGKILL');
    expect(await server.exited).toBe(null);

    server = await serve(['--api-port', '0', '--auth-port', '0', '--data-dir', dataDir]);
    // The write token key lives in storage too: the token issued before the crash still works.
    const scoredAfter = (await (await api(`${base}/play/${scored}`, { token })).json()) as {
      status: string;
    };
    const openAfter = (await (await api(`${base}/play/${open}`, { token })).json()) as {
      status: string;
    };
    expect([scoredAfter.status, openAfter.status]).toEqual(['scored', 'open']);
    const details = (await (await api(`/players/${demo.playerId}/details`, { token })).json()) as {
      balance: number;
      pending: number;
    };
    // 1000 HST, less two 10 HST plays, plus the scored one's leaders' 7 HST back (nobody led
    // the board before it); the open play's 10 HST still locked.
    expect(details).toMatchObject({ balance: 987, pending: 10 });
    const leaders = (await (await api(`${base}/leaders/${demo.highStakes}`, { token })).json()) as {
      leaders: { playerId: string; score: number }[];
    };
    expect(leaders.leaders).toEqual([
      expect.objectContaining({ playerId: demo.playerId, score: 0.25 }),
    ]);
  });
});
