import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair } from 'jose';
import {
  Arcade,
  ArcadeNetworkError,
  PlayerTokenClaimsError,
  PlayerTokenError,
  PlayerTokenExpiredError,
  PlayerTokenIssuerError,
  PlayerTokenMalformedError,
  PlayerTokenMissingError,
  PlayerTokenSignatureError,
  type ArcadeOptions,
} from '@coinop/server-sdk';
import { TEST_ADMIN_TOKEN } from '@coinop/testkit/app';
import { fundedPlayer, gameWithTiers } from '@coinop/testkit/arcade';
import { storeVariants } from '@coinop/testkit/db';
import { gameSignIn, newWallet, walletSignIn } from '@coinop/testkit/signin';
import {
  count,
  mintPlayerToken,
  sdkOptions,
  startCoinop,
  type Coinop,
} from '@coinop/testkit/coinop';
import { freePort } from '@coinop/testkit/net';

const JWKS_PATH = '/.well-known/jwks.json';

describe.each(storeVariants())('validatePlayerToken against a running coinop on %s', (variant) => {
  let coinop: Coinop;
  let options: ArcadeOptions;
  let arcade: Arcade;
  let issuer: string;
  let gameId: string;

  beforeAll(async () => {
    coinop = await startCoinop(variant);
    const game = await gameWithTiers(coinop);
    gameId = game.gameId;
    // The SDK reads the server's clock, so expiry is a step of the clock, not a wait.
    options = { ...sdkOptions(coinop, game), clock: coinop.clock };
    arcade = await Arcade.build(options);
    issuer = `https://${coinop.config.authIssuer}/`;
  });
  afterAll(() => coinop.close());

  /** The error a validation throws, or a failure when the token is accepted. */
  const refusal = async (token: string | null | undefined, by = arcade) => {
    const error = await by.validatePlayerToken(token).then(
      () => new Error('the token was accepted'),
      (e: unknown) => e,
    );
    if (!(error instanceof PlayerTokenError) && !(error instanceof ArcadeNetworkError)) {
      throw error;
    }
    return error;
  };

  it('returns the player of a token from the CLI login, fetching the keys once', async () => {
    const fresh = await Arcade.build(options);
    const wallet = newWallet();
    const session = await gameSignIn(coinop.auth, wallet, gameId);
    const before = count(coinop.authLog, 'GET', JWKS_PATH);
    const player = await fresh.validatePlayerToken(session.access_token);
    const { name } = await fresh.playerDetails(session.playerId);
    expect(player).toEqual({ playerId: session.playerId, displayName: name, picture: null });
    expect(decodeJwt(session.access_token).iss).toBe(issuer);

    const again = await gameSignIn(coinop.auth, wallet, gameId);
    expect((await fresh.validatePlayerToken(again.access_token)).playerId).toBe(session.playerId);
    expect(count(coinop.authLog, 'GET', JWKS_PATH)).toBe(before + 1);
  });

  // Issue 12: tokens do one job. The web app's own session is not a token for games.
  it("refuses the arcade web app's session token, which is not for games", async () => {
    const session = await walletSignIn(coinop.auth, newWallet());
    const error = await refusal(session.access_token);
    expect(error).toBeInstanceOf(PlayerTokenClaimsError);
    expect(error.message).toBe(
      'player token is for coinop:web, not for games (coinop:game): have the player sign in ' +
        'through the CLI login',
    );
  });

  // A token the player gave one game must not let that game's operator spend, at another game's
  // server, what the player allowed that other game (security review, 2026-11-29).
  it("refuses another game's token and a token of no game, naming the game", async () => {
    const other = await gameWithTiers(coinop);
    const wallet = newWallet();
    const ofOther = await gameSignIn(coinop.auth, wallet, other.gameId);
    expect(decodeJwt(ofOther.access_token)[`https://${coinop.config.claimsNamespace}/gameId`]).toBe(
      other.gameId,
    );
    const error = await refusal(ofOther.access_token);
    expect(error).toBeInstanceOf(PlayerTokenClaimsError);
    expect(error.message).toBe(
      `player token is for game ${other.gameId}, not this game (${gameId}): a token the player ` +
        'gave another game cannot spend what they allowed this one',
    );
    const otherArcade = await Arcade.build({ ...sdkOptions(coinop, other), clock: coinop.clock });
    expect((await otherArcade.validatePlayerToken(ofOther.access_token)).playerId).toBe(
      ofOther.playerId,
    );

    const ofNoGame = await gameSignIn(coinop.auth, wallet);
    const unbound = await refusal(ofNoGame.access_token);
    expect(unbound).toBeInstanceOf(PlayerTokenClaimsError);
    expect(unbound.message).toBe(
      'player token names no game: have the player sign in through a login naming this game ' +
        `(gameId ${gameId} on POST {auth_url}/cli)`,
    );
    const minted = await mintPlayerToken(coinop, ofOther.playerId, undefined, other.gameId);
    expect((await refusal(minted)).message).toContain(`is for game ${other.gameId}`);
  });

  it('accepts the issuer given as host:port or as the full iss', async () => {
    const session = await gameSignIn(coinop.auth, newWallet(), gameId);
    for (const given of [coinop.config.authIssuer, issuer]) {
      const explicit = await Arcade.build({ ...options, issuer: given });
      expect((await explicit.validatePlayerToken(session.access_token)).playerId).toBe(
        session.playerId,
      );
    }
  });

  it('refuses a missing token', async () => {
    for (const token of [undefined, null, '', '   ']) {
      const error = await refusal(token);
      expect(error).toBeInstanceOf(PlayerTokenMissingError);
      expect(error).toMatchObject({
        name: 'PlayerTokenMissingError',
        code: 'player_token_missing',
        message: 'a player token is required (spec 5.3)',
      });
    }
  });

  it('refuses a token that is not a JWT', async () => {
    for (const token of ['abc', 'a.b.c', 'eyJhbGciOiJSUzI1NiJ9.e30']) {
      const error = await refusal(token);
      expect(error).toBeInstanceOf(PlayerTokenMalformedError);
      expect(error).toMatchObject({
        code: 'player_token_malformed',
        message: 'player token is not a well-formed signed JWT',
      });
    }
  });

  it('refuses an expired token, valid until its ttl has passed', async () => {
    const { playerId } = await fundedPlayer(coinop, 0);
    const token = await mintPlayerToken(coinop, playerId, 1, gameId);
    expect((await arcade.validatePlayerToken(token)).playerId).toBe(playerId);
    coinop.clock.advance(2_000);
    const error = await refusal(token);
    expect(error).toBeInstanceOf(PlayerTokenExpiredError);
    expect(error).toMatchObject({
      name: 'PlayerTokenExpiredError',
      code: 'player_token_expired',
      message: 'player token has expired; the player must sign in again',
    });
  });

  it('refuses a token of another issuer', async () => {
    const session = await gameSignIn(coinop.auth, newWallet(), gameId);
    const elsewhere = await Arcade.build({ ...options, issuer: 'auth.other.example' });
    const error = await refusal(session.access_token, elsewhere);
    expect(error).toBeInstanceOf(PlayerTokenIssuerError);
    expect(error).toMatchObject({
      code: 'player_token_wrong_issuer',
      message: `player token was issued by ${issuer}, not https://auth.other.example/`,
    });
  });

  it('refuses a bad signature, an unpublished key and another algorithm', async () => {
    const session = await gameSignIn(coinop.auth, newWallet(), gameId);
    const [header, payload, signature] = session.access_token.split('.');
    const flipped = signature!.startsWith('A')
      ? `B${signature!.slice(1)}`
      : `A${signature!.slice(1)}`;
    const tampered = await refusal(`${header}.${payload}.${flipped}`);
    expect(tampered).toBeInstanceOf(PlayerTokenSignatureError);
    expect(tampered).toMatchObject({
      code: 'player_token_bad_signature',
      message: 'player token signature does not verify',
    });

    // The same claims, signed by a key the sign-in service never published.
    const claims = decodeJwt(session.access_token);
    const { privateKey } = await generateKeyPair('RS256');
    const foreign = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'not-published' })
      .sign(privateKey);
    const unknownKey = await refusal(foreign);
    expect(unknownKey).toBeInstanceOf(PlayerTokenSignatureError);
    expect(unknownKey.message).toBe(
      `player token names signing key not-published, which ${coinop.authUrl}${JWKS_PATH} ` +
        'does not publish',
    );

    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .sign(new TextEncoder().encode('a shared secret of thirty-two bytes!'));
    const wrongAlg = await refusal(hmac);
    expect(wrongAlg).toBeInstanceOf(PlayerTokenSignatureError);
    expect(wrongAlg.message).toBe(
      'player token is signed with HS256; player tokens are signed with RS256',
    );
  });

  it('refuses a token without the player claim of the namespace', async () => {
    const session = await gameSignIn(coinop.auth, newWallet(), gameId);
    const otherNamespace = await Arcade.build({ ...options, claimsNamespace: 'other.example' });
    const error = await refusal(session.access_token, otherNamespace);
    expect(error).toBeInstanceOf(PlayerTokenClaimsError);
    expect(error).toMatchObject({
      code: 'player_token_invalid_claims',
      message:
        'player token has no player id in claim https://other.example/playerId; is ' +
        "claimsNamespace the arcade's --claims-namespace?",
    });
  });

  it('validates a token of a rotated-in key at once, from the keys it already fetched', async () => {
    const fresh = await Arcade.build(options);
    const before = await gameSignIn(coinop.auth, newWallet(), gameId);
    await fresh.validatePlayerToken(before.access_token);
    const fetches = count(coinop.authLog, 'GET', JWKS_PATH);
    const rotated = await coinop.app.inject({
      method: 'POST',
      url: '/admin/keys/rotate',
      headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
    });
    expect(rotated.statusCode).toBe(200);
    const after = await gameSignIn(coinop.auth, newWallet(), gameId);
    expect(decodeProtectedHeader(after.access_token).kid).toBe(rotated.json().kid);

    // The new key was published as the next key before it signed, so no refetch (and no jose
    // 30 s cooldown) stands between a rotation and its first token.
    expect((await fresh.validatePlayerToken(after.access_token)).playerId).toBe(after.playerId);
    expect((await fresh.validatePlayerToken(before.access_token)).playerId).toBe(before.playerId);
    expect(count(coinop.authLog, 'GET', JWKS_PATH)).toBe(fetches);
  });

  it('throws ArcadeNetworkError when the sign-in service cannot be reached', async () => {
    const session = await gameSignIn(coinop.auth, newWallet(), gameId);
    const authUrl = `http://127.0.0.1:${await freePort()}`;
    const offline = await Arcade.build({ ...options, authUrl, issuer: coinop.config.authIssuer });
    const error = await refusal(session.access_token, offline);
    expect(error).toBeInstanceOf(ArcadeNetworkError);
    expect(error).toMatchObject({ code: 'network_error' });
    expect(error.message).toBe(
      `GET ${authUrl}${JWKS_PATH}: cannot load the signing keys: fetch failed`,
    );
    expect((error as ArcadeNetworkError).cause).toBeInstanceOf(TypeError);
  });
});
