import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlayerIdentity, ProfileReset, PublicPlayerProfile } from '@coinop/protocol';
import { unpublish } from '../../src/services/admin.js';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import { storeVariants } from '@coinop/testkit/db';
import { fundedPlayer, gameWithTiers, writeToken, type GameFixture } from '@coinop/testkit/arcade';
import { buildTestSignin, newWallet, walletSignIn, type TestSignin } from '@coinop/testkit/signin';
import { gifHeader, pngImage } from '../fixtures/images.js';

/**
 * Issue 31: a player appeared as `0xccce…1bde` on every board, with no way to choose a name or a
 * picture. Now they choose both, every board shows them at once, anyone can open their page, and
 * the operator can reset an abusive one.
 */
describe.each(storeVariants())('profiles on %s', (variant) => {
  let s: TestSignin;
  let game: GameFixture;
  let token: string;
  const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
  const api = () => ({
    app: s.api,
    db: s.db,
    clock: s.clock,
    config: s.config,
    close: () => s.close(),
  });

  beforeAll(async () => {
    s = await buildTestSignin(variant);
    game = await gameWithTiers(api(), { costs: [0, 0] });
    token = await writeToken(api(), game);
  });
  afterAll(async () => {
    await s.close();
  });

  async function signedIn(): Promise<{ playerId: string; wallet: string; bearer: string }> {
    const wallet = newWallet();
    const session = await walletSignIn(s.auth, wallet);
    return {
      playerId: session.playerId,
      wallet: wallet.address,
      bearer: `Bearer ${session.access_token}`,
    };
  }

  const setName = (bearer: string, name: string) =>
    s.api.inject({
      method: 'PATCH',
      url: '/player/me',
      headers: { authorization: bearer },
      payload: { name },
    });
  const setAvatar = (bearer: string, image: string) =>
    s.api.inject({
      method: 'PUT',
      url: '/player/me/avatar',
      headers: { authorization: bearer },
      payload: { image },
    });
  const dataUrl = (type: string, bytes: Buffer) =>
    `data:${type};base64,${bytes.toString('base64')}`;

  async function playAndScore(playerId: string, score: number, tier = game.tiers[0]!.id) {
    const headers = { authorization: `Bearer ${token}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const play = await s.api.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId, leaderboardId: tier },
    });
    expect(play.statusCode, play.body).toBe(200);
    const res = await s.api.inject({
      method: 'POST',
      url: `${base}/score`,
      headers,
      payload: { playId: play.json().id, leaderboardId: tier, score },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ leaders: { playerId: string; name: string }[] }>().leaders;
  }

  const boardNames = async () => {
    const res = await s.api.inject({
      method: 'GET',
      url: `/catalog/games/${game.gameId}/boards/${game.tiers[0]!.id}`,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ entries: { playerId: string; name: string; avatar: string }[] }>().entries;
  };

  it('shows a chosen name at once on a board the player is on, their page and /player/me', async () => {
    const ada = await signedIn();
    const rival = await fundedPlayer(api(), 0, 'Board Rival');
    await playAndScore(rival.playerId, 50);
    await playAndScore(ada.playerId, 80);
    // The board is read (and kept in memory by the score path) under the default name first.
    const before = await boardNames();
    expect(before[0]).toMatchObject({ playerId: ada.playerId, name: expect.stringMatching(/^0x/) });

    const res = await setName(ada.bearer, '  Ａda   Lovelace ');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PlayerIdentity>()).toEqual({
      playerId: ada.playerId,
      name: 'Ada Lovelace',
      avatar: `${s.config.publicUrl}/avatars/${ada.playerId}.svg`,
      nameChosen: true,
      avatarUploaded: false,
    });
    expect((await boardNames()).map((e) => e.name)).toEqual(['Ada Lovelace', 'Board Rival']);
    // A score after the change answers the leaders from the score path's memory of the board:
    // the copy it kept from before the change was dropped with it.
    const leaders = await playAndScore(rival.playerId, 60);
    expect(leaders.map((l) => l.name)).toEqual(['Ada Lovelace', 'Board Rival']);
    await playAndScore(ada.playerId, 90);
    expect((await boardNames()).map((e) => e.name)).toEqual(['Ada Lovelace', 'Board Rival']);

    const me = await s.api.inject({
      method: 'GET',
      url: '/player/me',
      headers: { authorization: ada.bearer },
    });
    expect(me.json()).toMatchObject({ name: 'Ada Lovelace' });

    const page = await s.api.inject({ method: 'GET', url: `/catalog/players/${ada.playerId}` });
    expect(page.statusCode, page.body).toBe(200);
    const profile = page.json<PublicPlayerProfile>();
    expect(profile).toEqual({
      playerId: ada.playerId,
      name: 'Ada Lovelace',
      avatar: `${s.config.publicUrl}/avatars/${ada.playerId}.svg`,
      nameChosen: true,
      avatarUploaded: false,
      memberSince: expect.any(String),
      boards: [
        {
          gameId: game.gameId,
          gameName: expect.any(String),
          scoreUnit: '',
          leaderboardId: game.tiers[0]!.id,
          leaderboardName: 'Tier 1',
          score: 90,
          rank: 1,
        },
      ],
      tournaments: [],
    });
    // Nothing private: not the wallet, in any letter case.
    expect(page.body.toLowerCase()).not.toContain(ada.wallet.toLowerCase().slice(2));
    expect(page.body).not.toContain('balance');
  });

  it('shows the new name on the boards another API process on the database serves', async () => {
    // Its caches keep what they read for ten minutes: only the notification can refresh them.
    const other = await s.anotherApi({ gameCacheTtlMs: 600_000 });
    try {
      const p = await signedIn();
      await playAndScore(p.playerId, 5, game.tiers[1]!.id);
      const names = async () => {
        const res = await other.inject({
          method: 'GET',
          url: `/catalog/games/${game.gameId}`,
        });
        const tier = res
          .json<{ leaderboards: { id: string; leaders: { playerId: string; name: string }[] }[] }>()
          .leaderboards.find((b) => b.id === game.tiers[1]!.id)!;
        return tier.leaders.find((l) => l.playerId === p.playerId)?.name;
      };
      // The other process reads the game (and keeps its leaders) under the default name.
      expect(await names()).toMatch(/^0x/);
      expect((await setName(p.bearer, 'Far Away')).statusCode).toBe(200);
      // It hears of the change by notification; give it the moment delivery takes.
      await expect.poll(names, { timeout: 2000 }).toBe('Far Away');
    } finally {
      await other.close();
    }
  });

  it.each([
    ['ab', 'too_short'],
    ['x'.repeat(25), 'too_long'],
    ['bad<name>', 'characters'],
    ['zero\u200bwidth', 'characters'],
    ['evil\u202eoverride', 'characters'],
    ['tab\u0007bell', 'characters'],
    ['...', 'no_letter_or_digit'],
    ['q\u0301\u0302\u0303bc', 'too_many_marks'],
    ['p\u0430ypal', 'mixed_scripts'],
    ['0xDeadBeef', 'looks_like_address'],
    ['player-abc123', 'looks_like_default'],
  ])('refuses the name %j: 400 name_invalid, %s', async (name, reason) => {
    const p = await signedIn();
    const res = await setName(p.bearer, name);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'name_invalid',
      details: { field: 'name', reason },
      message: expect.stringMatching(/^name: A name /),
    });
    const page = await s.api.inject({ method: 'GET', url: `/catalog/players/${p.playerId}` });
    expect(page.json()).toMatchObject({ nameChosen: false, name: expect.stringMatching(/^0x/) });
  });

  it('accepts names from any script, normalised', async () => {
    for (const [name, stored] of [
      ['Ærøskøbing', 'Ærøskøbing'],
      ['李小龍', '李小龍'],
      ['Ольга', 'Ольга'],
      ['x_y-z.1', 'x_y-z.1'],
      ['ﬁnch', 'finch'],
    ] as const) {
      const p = await signedIn();
      const res = await setName(p.bearer, name);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ name: stored, nameChosen: true });
    }
  });

  it('gives a name to one player only, in any letter case, and refuses bad bodies', async () => {
    const [a, b] = [await signedIn(), await signedIn()];
    expect((await setName(a.bearer, 'Unique Alice')).statusCode).toBe(200);
    const taken = await setName(b.bearer, 'UNIQUE alice');
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({
      code: 'name_taken',
      message: 'another player is already called UNIQUE alice',
      details: { field: 'name' },
    });
    // The same player choosing their own name again, in another case, is fine.
    expect((await setName(a.bearer, 'unique ALICE')).json()).toMatchObject({
      name: 'unique ALICE',
    });
    // A name the operator gave (a demo player) is taken too.
    await fundedPlayer(api(), 0, 'Demo Dana');
    expect((await setName(b.bearer, 'demo dana')).json()).toMatchObject({ code: 'name_taken' });

    for (const payload of [{}, { name: 7 }, { name: 'Okay', extra: 1 }, { name: 'x'.repeat(97) }]) {
      const res = await s.api.inject({
        method: 'PATCH',
        url: '/player/me',
        headers: { authorization: b.bearer },
        payload,
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('lets one of two players racing for a name have it', async () => {
    const racers = [await signedIn(), await signedIn(), await signedIn(), await signedIn()];
    const answers = await Promise.all(racers.map((r) => setName(r.bearer, 'Photo Finish')));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const rows = await s.db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM players WHERE name_key = 'photo finish'",
    );
    expect(rows[0]!.n).toBe('1');
  });

  it('takes an avatar upload, serves it, and removes it back to the generated one', async () => {
    const p = await signedIn();
    const png = pngImage(128, 128);
    const res = await setAvatar(p.bearer, dataUrl('image/png', png));
    expect(res.statusCode, res.body).toBe(200);
    const identity = res.json<PlayerIdentity>();
    expect(identity).toMatchObject({ avatarUploaded: true });
    const url = new URL(identity.avatar);
    expect(url.pathname).toBe(`/catalog/players/${p.playerId}/avatar`);
    expect(url.searchParams.get('v')).toMatch(/^[A-Za-z0-9_-]{22}$/);

    const image = await s.api.inject({ method: 'GET', url: url.pathname });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(png)).toBe(true);
    const etag = String(image.headers.etag);
    const again = await s.api.inject({
      method: 'GET',
      url: url.pathname,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);

    const removed = await s.api.inject({
      method: 'DELETE',
      url: '/player/me/avatar',
      headers: { authorization: p.bearer },
    });
    expect(removed.json()).toMatchObject({
      avatarUploaded: false,
      avatar: `${s.config.publicUrl}/avatars/${p.playerId}.svg`,
    });
    const gone = await s.api.inject({ method: 'GET', url: url.pathname });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 'avatar_not_found' });
  });

  it.each([
    ['a GIF', () => dataUrl('image/gif', gifHeader(100, 100)), 'not_data_url'],
    ['PNG bytes labelled JPEG', () => dataUrl('image/jpeg', pngImage(100, 100)), 'not_image'],
    ['text labelled PNG', () => dataUrl('image/png', Buffer.from('not an image')), 'not_image'],
    ['a 32 px PNG', () => dataUrl('image/png', pngImage(32, 32)), 'wrong_size'],
    ['a 4096 px wide PNG', () => dataUrl('image/png', pngImage(4096, 100)), 'wrong_size'],
    ['no data URL', () => 'https://example.com/me.png', 'not_data_url'],
  ])('refuses %s as an avatar: 422 avatar_invalid', async (_what, image, reason) => {
    const p = await signedIn();
    const res = await setAvatar(p.bearer, image());
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json()).toMatchObject({
      code: 'avatar_invalid',
      details: { field: 'image', reason },
    });
    const rows = await s.db.query('SELECT 1 FROM player_avatars WHERE player_id = $1', [
      p.playerId,
    ]);
    expect(rows).toHaveLength(0);
  });

  it('refuses an avatar over the size limit before reading it', async () => {
    const p = await signedIn();
    const res = await setAvatar(p.bearer, `data:image/png;base64,${'A'.repeat(800_000)}`);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'body_too_large' });
  });

  it('lets the operator reset an abusive name and avatar, keeping the reason', async () => {
    const p = await signedIn();
    await setName(p.bearer, 'Rude Name');
    await setAvatar(p.bearer, dataUrl('image/png', pngImage(64, 64)));
    await playAndScore(p.playerId, 10, game.tiers[1]!.id);

    const res = await s.api.inject({
      method: 'POST',
      url: `/admin/players/${p.playerId}/reset-profile`,
      headers: admin,
      payload: { reason: '  insults another player ' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const reset = res.json<ProfileReset>();
    const short = `${p.wallet.slice(0, 6)}…${p.wallet.slice(-4)}`;
    expect(reset).toEqual({
      playerId: p.playerId,
      name: short,
      avatar: `${s.config.publicUrl}/avatars/${p.playerId}.svg`,
      nameChosen: false,
      avatarUploaded: false,
      previousName: 'Rude Name',
      reason: 'insults another player',
      resetAt: s.clock.now().toISOString(),
    });
    const rows = await s.db.query<{ previous_name: string; removed_avatar: boolean }>(
      'SELECT previous_name, removed_avatar FROM player_profile_resets WHERE player_id = $1',
      [p.playerId],
    );
    expect(rows).toEqual([{ previous_name: 'Rude Name', removed_avatar: true }]);
    const board = await s.api.inject({
      method: 'GET',
      url: `/catalog/games/${game.gameId}/boards/${game.tiers[1]!.id}`,
    });
    expect(board.json().entries).toContainEqual(
      expect.objectContaining({ playerId: p.playerId, name: short }),
    );
    // The name is free again; the reset player may choose a name again.
    expect((await setName((await signedIn()).bearer, 'rude name')).statusCode).toBe(200);

    // By wallet too; bad input is refused without a write.
    const byWallet = await s.api.inject({
      method: 'POST',
      url: `/admin/players/${p.wallet}/reset-profile`,
      headers: admin,
      payload: { reason: 'again' },
    });
    expect(byWallet.json()).toMatchObject({ previousName: short });
    for (const [url, payload, status, code] of [
      [`/admin/players/${p.playerId}/reset-profile`, {}, 400, 'validation_failed'],
      [`/admin/players/${p.playerId}/reset-profile`, { reason: 'no' }, 400, 'validation_failed'],
      [`/admin/players/${randomUUID()}/reset-profile`, { reason: 'who?' }, 404, 'player_not_found'],
    ] as const) {
      const bad = await s.api.inject({ method: 'POST', url, headers: admin, payload });
      expect(bad.statusCode, bad.body).toBe(status);
      expect(bad.json()).toMatchObject({ code });
    }
    const count = await s.db.query('SELECT 1 FROM player_profile_resets WHERE player_id = $1', [
      p.playerId,
    ]);
    expect(count).toHaveLength(2);
  });

  it('leaves unpublished games off the player page, and 404s an unknown player', async () => {
    const p = await signedIn();
    const other = await gameWithTiers(api(), { costs: [0] });
    const otherToken = await writeToken(api(), other);
    const base = `/arcades/${other.arcadeId}/games/${other.gameId}`;
    const headers = { authorization: `Bearer ${otherToken}` };
    const play = await s.api.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId: p.playerId, leaderboardId: other.tiers[0]!.id },
    });
    await s.api.inject({
      method: 'POST',
      url: `${base}/score`,
      headers,
      payload: { playId: play.json().id, leaderboardId: other.tiers[0]!.id, score: 3 },
    });
    const boards = async () =>
      (
        await s.api.inject({ method: 'GET', url: `/catalog/players/${p.playerId}` })
      ).json<PublicPlayerProfile>().boards;
    expect((await boards()).map((b) => b.gameId)).toEqual([other.gameId]);
    await unpublish(s.api.arcade, other.gameId);
    expect(await boards()).toEqual([]);

    const unknown = await s.api.inject({ method: 'GET', url: `/catalog/players/${randomUUID()}` });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'player_not_found' });
    const bad = await s.api.inject({ method: 'GET', url: '/catalog/players/not-a-uuid' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
  });

  // Last: it moves the clock past the round's end, an hour on.
  it('lists tournament prizes of published games on the player page', async () => {
    const winner = await fundedPlayer(api(), 2, 'Cup Winner');
    const made = await s.api.inject({
      method: 'POST',
      url: '/admin/tournaments',
      headers: admin,
      payload: {
        name: 'Profile Cup',
        gameId: game.gameId,
        entryFee: '2',
        startsAt: s.clock.now().toISOString(),
        durationSeconds: 3600,
        recurrence: null,
        guaranteedPool: '0',
        payoutTable: { places: [10_000] },
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const tournament = made.json<{ id: string; currentRound: { id: string; endsAt: string } }>();
    const round = tournament.currentRound;
    const headers = { authorization: `Bearer ${await writeToken(api(), game)}` };
    const base = `/arcades/${game.arcadeId}/games/${game.gameId}`;
    const play = await s.api.inject({
      method: 'POST',
      url: `${base}/play`,
      headers,
      payload: { playerId: winner.playerId, leaderboardId: round.id },
    });
    expect(play.statusCode, play.body).toBe(200);
    const scored = await s.api.inject({
      method: 'POST',
      url: `${base}/score`,
      headers,
      payload: { playId: play.json().id, leaderboardId: round.id, score: 77 },
    });
    expect(scored.statusCode, scored.body).toBe(200);
    s.clock.advance(Date.parse(round.endsAt) + 1000 - s.clock.now().getTime());
    const closedAt = s.clock.now().toISOString();
    await s.api.arcade.closer.closeDue(s.api.log);

    const detail = await s.api.inject({
      method: 'GET',
      url: `/catalog/tournaments/${tournament.id}/rounds/${round.id}`,
    });
    const { results } = detail.json<{ results: { playerId: string; prize: string }[] }>();
    expect(results).toHaveLength(1);
    const page = await s.api.inject({ method: 'GET', url: `/catalog/players/${winner.playerId}` });
    const profile = page.json<PublicPlayerProfile>();
    expect(profile.tournaments).toEqual([
      {
        tournamentId: tournament.id,
        tournamentName: 'Profile Cup',
        gameId: game.gameId,
        gameName: expect.any(String),
        scoreUnit: '',
        roundNumber: 1,
        place: 1,
        score: 77,
        prize: results[0]!.prize,
        closedAt,
      },
    ]);
    expect(results[0]!.prize).toMatch(/^\d+(\.\d+)?$/);
    // A round's board is its own: it is not listed with the game's tiers.
    expect(profile.boards).toEqual([]);
  });
});
