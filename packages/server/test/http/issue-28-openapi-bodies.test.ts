import { randomUUID } from 'node:crypto';
import { hstAbi } from '@coinop/contracts';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import { gameWithTiers, nextWallet } from '@coinop/testkit/arcade';
import { storeVariants, type StoreVariant } from '@coinop/testkit/db';
import { buildTestSignin } from '@coinop/testkit/signin';
import type { LightMyRequestResponse } from 'fastify';
import type { PrivateKeyAccount } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findScoreByPlay } from '../../src/store/leaders.js';
import { findPlayer } from '../../src/store/players.js';
import { chainConfigFor, HST, startArcadeChain, type ArcadeChain } from '../fixtures/chain.js';
import { pngImage } from '../fixtures/images.js';
import {
  checkedInject,
  isEventStream,
  operationsOf,
  ResponseChecker,
  servedDocument,
  type DocumentedOperation,
  type InjectMethod,
} from '../fixtures/openapi-responses.js';

/**
 * Issue 28: two routes' 200 bodies were undocumented ("Default Response"), so clients generated
 * from the OpenAPI documents got no types for them, and nothing noticed. Here an arcade in chain
 * mode is given one of everything (a game with scores and payouts, deposits, withdrawals, a play
 * locked from a wallet, a tournament, an API key, a tester, a publish request, a CLI login), then
 * every GET operation both documents list is called with its credential and must answer a 2xx
 * whose body validates against the served document; so must every write the world was built
 * with. The operations come from the documents, not a list here: a new read route is walked as
 * soon as it exists, and fails until its body is documented (or, with a path parameter this test
 * has no value for, until one is added to `pathValues`). Then every operation, given bad input
 * with its credential, must answer a documented 4xx.
 */

let chain: ArcadeChain;
beforeAll(async () => {
  chain = await startArcadeChain();
}, 120_000);
afterAll(() => chain?.stop());

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function ok<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  if (res.statusCode >= 300) throw new Error(`${res.statusCode}: ${res.body}`);
  return res.json<T>();
}

interface Signed {
  access_token: string;
  playerId: string;
}

/** The arcade with one of everything, and what each operation's path and credential need. */
async function buildWorld(variant: StoreVariant) {
  const vault = await chain.newVault();
  const s = await buildTestSignin(variant, {
    chain: chainConfigFor(chain, vault, { confirmations: 0 }),
  });
  const watcher = s.api.arcade.chain!;
  await watcher.runOnce();
  const checkers = {
    api: new ResponseChecker(await servedDocument(s.api)),
    signin: new ResponseChecker(await servedDocument(s.auth)),
  };
  const api = checkedInject(s.api, checkers.api);
  const auth = checkedInject(s.auth, checkers.signin);

  const signIn = async (account: PrivateKeyAccount): Promise<Signed> => {
    const { message } = ok<{ message: string }>(
      await auth({
        method: 'POST',
        url: '/wallet/challenge',
        payload: { address: account.address },
      }),
    );
    const signature = await account.signMessage({ message });
    return ok<Signed>(
      await auth({ method: 'POST', url: '/wallet/verify', payload: { message, signature } }),
    );
  };
  // Ada develops the game and leads its board; Bob plays it from a wallet holding HST.
  const adaWallet = chain.players[0]!;
  const bobWallet = chain.players[1]!;
  const ada = await signIn(adaWallet.account as PrivateKeyAccount);
  const bob = await signIn(bobWallet.account as PrivateKeyAccount);
  const asAda = bearer(ada.access_token);
  const asBob = bearer(bob.access_token);
  const asAdmin = bearer(TEST_ADMIN_TOKEN);
  ok(await auth({ method: 'POST', url: '/session/renew', headers: asBob }));

  const testApi = { app: s.api, db: s.db, clock: s.clock, config: s.config, close: s.close };
  const developerWallet = adaWallet.account.address.toLowerCase();
  const game = await gameWithTiers(testApi, { costs: [1, 10], developerWallet });
  const unpublished = await gameWithTiers(testApi, { published: false, developerWallet });
  const tier = game.tiers[1]!;
  const { access_token: writeToken } = ok<{ access_token: string }>(
    await api({
      method: 'POST',
      url: '/oauth/writetoken',
      payload: { client_id: game.clientId, client_secret: game.clientSecret },
    }),
  );

  // HST for both, deposited into the vault from their wallets.
  const accountOf = async (playerId: string) => (await findPlayer(s.db, playerId))!.accountId;
  await chain.deposit(vault.vault, adaWallet, await accountOf(ada.playerId), 100n * HST);
  const bobDeposit = await chain.deposit(
    vault.vault,
    bobWallet,
    await accountOf(bob.playerId),
    100n * HST,
  );
  // A base unit sent to the vault without a deposit: surplus for the operator's surplus routes.
  const dustHash = await adaWallet.writeContract({
    address: chain.hst,
    abi: hstAbi,
    functionName: 'transfer',
    args: [vault.vault, 1n],
  });
  const dust = await chain.admin.waitForTransactionReceipt({ hash: dustHash });
  await watcher.runOnce();

  // Ada leads; Bob's score pays her; Bob's last play stays open.
  const gamePath = `/arcades/${game.arcadeId}/games/${game.gameId}`;
  const play = async (playerId: string, score: number | null) => {
    const opened = ok<{ id: string }>(
      await api({
        method: 'POST',
        url: `${gamePath}/play`,
        headers: bearer(writeToken),
        payload: { playerId, leaderboardId: tier.id },
      }),
    );
    if (score !== null) {
      ok(
        await api({
          method: 'POST',
          url: `${gamePath}/score`,
          headers: bearer(writeToken),
          payload: { playId: opened.id, leaderboardId: tier.id, score },
        }),
      );
    }
    return opened.id;
  };
  const adaPlayId = await play(ada.playerId, 300);
  await play(bob.playerId, 200);
  const openPlayId = await play(bob.playerId, null);

  // The developer portal: a cover, an API key, a tester, a tournament, a publish request.
  ok(
    await api({
      method: 'PATCH',
      url: `/developer/games/${game.gameId}`,
      headers: asAda,
      payload: {
        coverImage: `data:image/png;base64,${pngImage(1920, 1080).toString('base64')}`,
        tagLine: 'High scores pay',
      },
    }),
  );
  const apiKey = ok<{ apiKey: string; prefix: string }>(
    await api({ method: 'POST', url: '/developer/apikey', headers: asAda }),
  );
  const testerWallet = nextWallet();
  ok(
    await api({
      method: 'PUT',
      url: `/developer/games/${game.gameId}/testers/${testerWallet}`,
      headers: asAda,
    }),
  );
  const tournament = ok<{ id: string }>(
    await api({
      method: 'POST',
      url: `/developer/games/${game.gameId}/tournaments`,
      headers: asAda,
      payload: {
        name: 'Weekly Cup',
        entryFee: '1',
        startsAt: new Date(s.clock.now().getTime() + 60_000).toISOString(),
        durationSeconds: 3600,
        payoutTable: { places: [10000] },
      },
    }),
  );
  s.clock.advance(61_000);
  const rounds = ok<{ rounds: { id: string }[] }>(
    await api({ method: 'GET', url: `/catalog/tournaments/${tournament.id}/rounds` }),
  );
  const publishRequest = ok<{ requestId: string }>(
    await api({
      method: 'POST',
      url: `/developer/games/${unpublished.gameId}/publish-requests`,
      headers: asAda,
      payload: { note: 'Ready for players' },
    }),
  );

  // The player's money: an allowance, a withdrawal, a play locked from the wallet.
  ok(
    await api({
      method: 'PUT',
      url: `/player/allowances/${game.gameId}`,
      headers: asBob,
      payload: { dailyLimit: '5' },
    }),
  );
  const bobWithdrawal = ok<{ withdrawalId: string }>(
    await api({
      method: 'POST',
      url: '/player/withdrawals',
      headers: asBob,
      payload: { amount: '1.5', to: bobWallet.account.address },
    }),
  );
  const adaWithdrawal = ok<{ withdrawalId: string }>(
    await api({
      method: 'POST',
      url: '/developer/withdrawals',
      headers: { 'api-key': apiKey.apiKey },
      payload: { amount: '0.01', to: adaWallet.account.address },
    }),
  );
  const chainPlay = ok<{ playId: string }>(
    await api({
      method: 'POST',
      url: `/player/games/${game.gameId}/chain-plays`,
      headers: asBob,
      payload: { leaderboardId: tier.id },
    }),
  );

  // A command-line login Ada approves; its tool has not polled yet.
  const login = ok<{ requestorId: string; token: string; userCode: string }>(
    await auth({ method: 'POST', url: '/cli', payload: { description: 'coinop CLI on a laptop' } }),
  );
  ok(
    await auth({
      method: 'POST',
      url: `/cli/${login.requestorId}/approve`,
      headers: asAda,
      payload: { userCode: login.userCode },
    }),
  );

  // Ada's game checks replays with a verifier of its own (issue 30).
  ok(
    await api({
      method: 'PUT',
      url: `/developer/games/${game.gameId}/verifier`,
      headers: { ...asAda, 'content-type': 'text/javascript' },
      payload: 'export function verify({ score }) { return score; }',
    }),
  );
  // Bob doubts Ada's score; a score the game's rules refuse, with its replay (issue 30). Last,
  // so that the rule touches no score above.
  const adaScore = (await findScoreByPlay(s.db, adaPlayId))!;
  const report = ok<{ reportId: string }>(
    await api({
      method: 'POST',
      url: `/player/scores/${adaScore.id}/report`,
      headers: asBob,
      payload: { reason: 'bot', note: '300 on the first try' },
    }),
  );
  ok(
    await api({
      method: 'PATCH',
      url: `/developer/games/${game.gameId}`,
      headers: asAda,
      payload: { scoreRules: { maxScore: 1000 } },
    }),
  );
  const refusedScore = await api({
    method: 'POST',
    url: `${gamePath}/score`,
    headers: bearer(writeToken),
    payload: { playId: openPlayId, leaderboardId: tier.id, score: 5000, replay: 'RRLL' },
  });
  if (refusedScore.statusCode !== 422) throw new Error(`not refused: ${refusedScore.body}`);
  const refusals = ok<{ reviews: { id: string }[] }>(
    await api({ method: 'GET', url: '/admin/reviews?state=refused', headers: asAdmin }),
  );
  const refusalId = refusals.reviews[0]!.id;

  // Ada's game shows a screenshot on its page (issue 31).
  const screenshot = ok<{ id: string }>(
    await api({
      method: 'POST',
      url: `/developer/games/${game.gameId}/screenshots`,
      headers: asAda,
      payload: {
        image: `data:image/png;base64,${pngImage(1920, 1080).toString('base64')}`,
        alt: 'The first level',
      },
    }),
  );

  // Bob shows a picture of his own (issue 31), so his avatar route has one to serve.
  ok(
    await api({
      method: 'PUT',
      url: '/player/me/avatar',
      headers: asBob,
      payload: { image: `data:image/png;base64,${pngImage(128, 128).toString('base64')}` },
    }),
  );

  /** The value of each path parameter, by name; a few paths name a different thing. */
  const pathValues: Record<string, string> = {
    arcadeId: game.arcadeId,
    gameId: game.gameId,
    leaderboardId: tier.id,
    playerId: bob.playerId,
    player: bob.playerId,
    playId: openPlayId,
    accountId: await accountOf(bob.playerId),
    tournamentId: tournament.id,
    roundId: rounds.rounds[0]!.id,
    txHash: bobDeposit.txHash,
    requestorId: login.requestorId,
    prefix: apiKey.prefix,
    clientId: game.clientId,
    wallet: testerWallet,
    requestId: publishRequest.requestId,
    withdrawalId: bobWithdrawal.withdrawalId,
    deposit: `${bobDeposit.txHash}:${bobDeposit.logIndex}`,
    scoreId: adaScore.id,
    reviewId: report.reportId,
    developerId: game.developerId,
    screenshotId: screenshot.id,
    surplus: `${dust.transactionHash}:${dust.logs[0]!.logIndex}`,
  };
  const pathValuesByPath: Record<string, Record<string, string>> = {
    '/player/chain-plays/{playId}': { playId: chainPlay.playId },
    // Bob's score paid Ada, the leader.
    '/arcades/{arcadeId}/games/{gameId}/payouts/{playerId}': { playerId: ada.playerId },
    '/developer/withdrawals/{withdrawalId}': { withdrawalId: adaWithdrawal.withdrawalId },
    // Only a refused attempt keeps its replay.
    '/admin/reviews/{reviewId}/replay': { reviewId: refusalId },
    '/developer/games/{gameId}/reviews/{reviewId}/replay': { reviewId: refusalId },
  };
  /** Required query parameters, by name. */
  const queryValues: Record<string, string> = { code: login.userCode };

  /** The credential of an operation's first security requirement, as its caller sends it. */
  const credentialFor = ({ path, op }: DocumentedOperation): Record<string, string> => {
    const scheme = Object.keys(op.security?.[0] ?? {})[0];
    switch (scheme) {
      case undefined:
        return {};
      case 'writeToken':
        return bearer(writeToken);
      case 'adminToken':
        return asAdmin;
      case 'apiKey':
        return { 'api-key': apiKey.apiKey };
      case 'pollToken':
        return bearer(login.token);
      case 'playerToken':
        return path.startsWith('/developer') || path.startsWith('/cli') ? asAda : asBob;
      default:
        throw new Error(`${path}: no credential for the security scheme ${scheme}`);
    }
  };

  /** The operation's path with this world's values, or a throw naming what is missing. */
  const urlFor = (
    operation: DocumentedOperation,
    values = pathValues,
    /** A parameter whose value `values` sets, over the path's own. */
    given?: string,
  ): string => {
    const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const byPath = name === given ? undefined : pathValuesByPath[operation.path]?.[name];
      const value = byPath ?? values[name];
      if (value === undefined) {
        throw new Error(`${operation.path}: add a value for the path parameter ${name}`);
      }
      return encodeURIComponent(value);
    });
    const query = (operation.op.parameters ?? [])
      .filter((p) => p.in === 'query' && p.required)
      .map((p) => {
        const value = queryValues[p.name];
        if (value === undefined) {
          throw new Error(`${operation.path}: add a value for the query parameter ${p.name}`);
        }
        return `${p.name}=${encodeURIComponent(value)}`;
      });
    return query.length === 0 ? path : `${path}?${query.join('&')}`;
  };

  return { s, checkers, api, auth, credentialFor, urlFor, pathValues };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

const whichDocuments = ['api', 'signin'] as const;

describe.each(storeVariants())('issue 28: every body the arcade sends is documented (%s)', (v) => {
  let world: World;
  beforeAll(async () => {
    world = await buildWorld(v);
  }, 180_000);
  afterAll(() => world?.s.close());

  it('built the world through writes whose answers the documents describe', () => {
    const checked = [...world.checkers.api.checked, ...world.checkers.signin.checked];
    const wrong = checked
      .filter((c) => c.problems.length > 0)
      .map((c) => `${c.operation.method} ${c.operation.path}: ${c.problems.join('; ')}`);
    expect(wrong).toEqual([]);
    const writes = new Set(
      checked.filter((c) => c.operation.method !== 'get').map((c) => c.operation.op.operationId),
    );
    // The writes above, each answered 2xx and checked (a sample that a test cannot skip).
    expect([...writes].sort()).toEqual(
      expect.arrayContaining([
        'approveCliLogin',
        'createSignInChallenge',
        'createWriteToken',
        'developerCreateApiKey',
        'developerCreateTournament',
        'developerRequestWithdrawal',
        'openPlay',
        'playerRequestChainPlay',
        'playerRequestWithdrawal',
        'submitScore',
        'verifyWalletSignIn',
      ]),
    );
  });

  it.each(whichDocuments)(
    'answers every GET operation of the %s document with a 2xx body it describes',
    async (which) => {
      const checker = world.checkers[which];
      const inject = which === 'api' ? world.api : world.auth;
      const reads = operationsOf(checker.document).filter(
        (operation) => operation.method === 'get' && !isEventStream(operation),
      );
      expect(reads.length).toBeGreaterThan(which === 'api' ? 50 : 4);
      const wrong: string[] = [];
      for (const operation of reads) {
        const res = await inject({
          method: 'GET',
          url: world.urlFor(operation),
          headers: world.credentialFor(operation),
        });
        const problems = checker.checked.at(-1)!.problems;
        const where = `GET ${operation.path}`;
        if (res.statusCode >= 300) wrong.push(`${where} answered ${res.statusCode}: ${res.body}`);
        for (const problem of problems) wrong.push(`${where}: ${problem}`);
      }
      expect(wrong).toEqual([]);
    },
  );

  it.each(whichDocuments)(
    'answers bad input to every %s operation, with its credential, with a 4xx it documents',
    async (which) => {
      const checker = world.checkers[which];
      const inject = which === 'api' ? world.api : world.auth;
      const wrong: string[] = [];
      const expectDocumented = (operation: DocumentedOperation, what: string, only4xx = true) => {
        const { status, problems } = checker.checked.at(-1)!;
        const where = `${operation.method.toUpperCase()} ${operation.path} ${what}`;
        if (status >= 500 || (only4xx && status < 400)) wrong.push(`${where} answered ${status}`);
        for (const problem of problems) wrong.push(`${where}: ${problem}`);
      };
      for (const operation of operationsOf(checker.document)) {
        const method = operation.method.toUpperCase() as InjectMethod;
        const headers = world.credentialFor(operation);
        const params = [...operation.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        const call = (url: string) =>
          inject({ method, url, headers, ...(operation.op.requestBody ? { payload: {} } : {}) });
        // Each id in turn naming nothing, the others this world's: the 404 of each lookup.
        for (const name of params) {
          await call(world.urlFor(operation, { ...world.pathValues, [name]: randomUUID() }, name));
          // Some routes look nothing up (an avatar is drawn for any id): any documented answer.
          expectDocumented(operation, `with no such ${name}`, false);
        }
        // Text that is no id at all, everywhere.
        if (params.length > 0) {
          await call(operation.path.replace(/\{\w+\}/g, 'not%20an%20id'));
          expectDocumented(operation, 'with ids that are not ids');
        }
        if (operation.op.requestBody) {
          const url = world.urlFor(operation);
          await inject({
            method,
            url,
            headers: { ...headers, 'content-type': 'application/json' },
            payload: '{"truncated":',
          });
          expectDocumented(operation, 'with a body that is not JSON');
          await inject({
            method,
            url,
            headers: { ...headers, 'content-type': 'text/plain' },
            payload: 'hello',
          });
          expectDocumented(operation, 'with a text body');
        }
      }
      expect(wrong).toEqual([]);
    },
  );
});
