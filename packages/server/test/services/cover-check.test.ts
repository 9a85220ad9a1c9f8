import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CoinopError } from '@coinop/core';
import {
  createCoverCheck,
  fetchCoverBytes,
  inspectCover,
  isPublicAddress,
  type CoverPolicy,
} from '../../src/services/cover-check.js';
import { redirect, serve, startCoverServer, type CoverServer } from '../fixtures/cover-server.js';
import { gifHeader, pngImage, svgImage } from '../fixtures/images.js';

const LOCAL: CoverPolicy = { fetchTimeoutMs: 2000, maxBytes: 1024 * 1024, allowPrivateUrls: true };
const PUBLIC_ONLY: CoverPolicy = { ...LOCAL, allowPrivateUrls: false };

/** The CoinopError a promise rejects with, for asserting code, message and details together. */
async function rejection(promise: Promise<unknown>): Promise<CoinopError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof CoinopError) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

function thrown(fn: () => unknown): CoinopError {
  try {
    fn();
  } catch (error) {
    if (error instanceof CoinopError) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('inspectCover', () => {
  it('accepts a 1920x1080 PNG and GIF', () => {
    expect(inspectCover(pngImage(1920, 1080))).toEqual({ type: 'png', width: 1920, height: 1080 });
    expect(inspectCover(gifHeader(1920, 1080))).toEqual({ type: 'gif', width: 1920, height: 1080 });
  });

  it.each([
    [800, 600],
    [1080, 1920],
    [1921, 1080],
    [3840, 2160],
  ])('refuses %ix%i, saying what it found', (width, height) => {
    const error = thrown(() => inspectCover(pngImage(width, height)));
    expect(error.code).toBe('cover_wrong_size');
    expect(error.message).toBe(`cover image must be 1920x1080, found ${width}x${height}`);
    expect(error.details).toEqual({ field: 'coverUrl', width, height });
  });

  it.each([
    ['text', Buffer.from('<html><body>not an image</body></html>')],
    ['nothing', Buffer.alloc(0)],
    ['a truncated PNG', pngImage(1920, 1080).subarray(0, 10)],
  ])('refuses %s as not an image', (_what, bytes) => {
    const error = thrown(() => inspectCover(bytes));
    expect(error.code).toBe('cover_not_image');
    expect(error.message).toBe(
      'coverUrl is not an image the arcade can read (PNG, JPEG, GIF, WebP or AVIF)',
    );
  });

  it('refuses an SVG even of the right size', () => {
    const error = thrown(() => inspectCover(svgImage(1920, 1080)));
    expect(error.code).toBe('cover_not_image');
    expect(error.message).toBe('coverUrl must be a PNG, JPEG, GIF, WebP or AVIF image, found svg');
  });
});

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.9.9.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    'not-an-address',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    '%s is public',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('fetchCoverBytes against a local server', () => {
  let server: CoverServer;
  const cover = pngImage(1920, 1080);
  beforeAll(async () => {
    server = await startCoverServer({
      '/cover.png': serve(cover),
      '/r1': redirect('/cover.png'),
      '/r2': redirect('/r1', 301),
      '/r3': redirect('/r2', 307),
      '/r4': redirect('/r3', 308),
      '/to-ftp': redirect('ftp://127.0.0.1/cover.png'),
      '/no-location': (_req, res) => res.writeHead(302).end(),
      '/bad-location': redirect('http://[oops/cover.png'),
      '/error': (_req, res) => res.writeHead(500).end('boom'),
      '/hang': () => {
        // Never answers: the fetch deadline must end it.
      },
      '/declared-large': serve(Buffer.alloc(2048)),
      '/streamed-large': (_req, res) => {
        res.writeHead(200, { 'content-type': 'image/png' });
        // No content-length: the reader must stop on its own.
        for (let i = 0; i < 4; i++) res.write(Buffer.alloc(512));
        res.end();
      },
    });
  });
  afterAll(() => server.close());

  it('returns the bytes of a 200 answer', async () => {
    expect(Buffer.from(await fetchCoverBytes(server.url('/cover.png'), LOCAL))).toEqual(cover);
  });

  it('follows up to three redirects', async () => {
    const bytes = await fetchCoverBytes(server.url('/r3'), LOCAL);
    expect(bytes.length).toBe(cover.length);
  });

  it.each([
    ['/r4', 'too_many_redirects', 'more than 3 redirects'],
    ['/to-ftp', 'bad_redirect', 'redirected to ftp://127.0.0.1/cover.png, which is not http(s)'],
    ['/no-location', 'bad_redirect', 'HTTP 302 without a Location header'],
    ['/bad-location', 'bad_redirect', 'HTTP 302 to an invalid Location'],
    ['/error', 'http_status', 'the server answered HTTP 500'],
    ['/missing', 'http_status', 'the server answered HTTP 404'],
  ])('%s is unreachable (%s)', async (path, reason, why) => {
    const error = await rejection(fetchCoverBytes(server.url(path), LOCAL));
    expect(error.code).toBe('cover_unreachable');
    expect(error.message).toBe(`coverUrl could not be fetched: ${why}`);
    expect(error.details).toMatchObject({ field: 'coverUrl', reason });
  });

  it('gives up at the deadline', async () => {
    const policy = { ...LOCAL, fetchTimeoutMs: 100 };
    const error = await rejection(fetchCoverBytes(server.url('/hang'), policy));
    expect(error.code).toBe('cover_unreachable');
    expect(error.message).toBe('coverUrl could not be fetched: no complete answer within 100 ms');
  });

  it.each(['/declared-large', '/streamed-large'])(
    'stops reading %s beyond maxBytes',
    async (path) => {
      const error = await rejection(
        fetchCoverBytes(server.url(path), { ...LOCAL, maxBytes: 1000 }),
      );
      expect(error.code).toBe('cover_unreachable');
      expect(error.message).toBe(
        'coverUrl could not be fetched: the image is larger than 1000 bytes',
      );
    },
  );

  it('reports a closed port as unreachable', async () => {
    const closed = await startCoverServer({});
    const url = closed.url('/cover.png');
    await closed.close();
    const error = await rejection(fetchCoverBytes(url, LOCAL));
    expect(error.code).toBe('cover_unreachable');
    expect(error.message).toBe('coverUrl could not be fetched: ECONNREFUSED');
  });

  describe('without --allow-private-urls', () => {
    it('refuses a loopback address without connecting', async () => {
      const before = server.hits.length;
      const error = await rejection(fetchCoverBytes(server.url('/cover.png'), PUBLIC_ONLY));
      expect(error.code).toBe('cover_unreachable');
      expect(error.message).toBe(
        'coverUrl could not be fetched: 127.0.0.1 is a loopback, private or reserved address, ' +
          'and the arcade fetches only public addresses (an operator can allow them with ' +
          '--allow-private-urls)',
      );
      expect(error.details).toMatchObject({ reason: 'private_address' });
      expect(server.hits.length).toBe(before);
    });

    it('refuses a host name that resolves to loopback, checked before connecting', async () => {
      const before = server.hits.length;
      const url = server.url('/cover.png').replace('127.0.0.1', 'localhost');
      const error = await rejection(fetchCoverBytes(url, PUBLIC_ONLY));
      expect(error.code).toBe('cover_unreachable');
      expect(error.message).toMatch(
        /^coverUrl could not be fetched: localhost resolves to (127\.0\.0\.1|::1), which is a loopback, private or reserved address/,
      );
      expect(server.hits.length).toBe(before);
    });

    it.each(['http://[::1]:9/x.png', 'http://10.1.2.3/x.png', 'http://169.254.169.254/latest'])(
      'refuses %s',
      async (url) => {
        const error = await rejection(fetchCoverBytes(url, PUBLIC_ONLY));
        expect(error.details).toMatchObject({ reason: 'private_address' });
      },
    );
  });
});

describe('createCoverCheck', () => {
  it('fetches with the injected fetcher and policy, then inspects the bytes', async () => {
    const seen: [string, CoverPolicy][] = [];
    const check = createCoverCheck(LOCAL, async (url, policy) => {
      seen.push([url, policy]);
      return pngImage(800, 600);
    });
    const error = await rejection(check('https://cdn.example.com/c.png'));
    expect(error.message).toBe('cover image must be 1920x1080, found 800x600');
    expect(seen).toEqual([['https://cdn.example.com/c.png', LOCAL]]);
  });
});
