import { describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { webApprovalPageUrl } from '../../src/signin/app.js';
import { webApprovalPageLocation } from '../../src/signin/pages/cli-login.js';

// Issue 17: the sign-in service's approval page offered only an extension wallet, so a player
// of the arcade wallet (kept by the web app, on another origin) could not approve a CLI login.
// The page now sends players to the web app's /cli-login whenever the installation serves it.
describe('where players approve a CLI login', () => {
  it.each([
    {
      given: '--web-origin names the web app',
      config: testConfig({ webOrigins: ['https://arcade.example'] }),
      url: 'https://arcade.example/cli-login',
    },
    {
      given: 'this process serves the web app on a known port',
      config: testConfig({ webPort: 8082 }),
      url: 'http://127.0.0.1:8082/cli-login',
    },
    {
      given: 'the web app runs nowhere this service knows of (--services auth)',
      config: testConfig({ webPort: 8082, services: ['auth'] }),
      url: null,
    },
    {
      given: 'the web port is picked at listen time (embedded, tests)',
      config: testConfig({ webPort: 0 }),
      url: null,
    },
  ])('is $url when $given', ({ config, url }) => {
    expect(webApprovalPageUrl(config)).toBe(url);
  });

  it('passes only the request id and code on, encoded', () => {
    expect(
      webApprovalPageLocation('https://arcade.example/cli-login', {
        requestorId: '2b7c6f0e-2f0d-4a3e-9f4b-1c2d3e4f5a6b',
        code: 'WDJB-MJHT',
        next: 'https://evil.example',
      }),
    ).toBe(
      'https://arcade.example/cli-login?requestorId=2b7c6f0e-2f0d-4a3e-9f4b-1c2d3e4f5a6b&code=WDJB-MJHT',
    );
    expect(webApprovalPageLocation('https://arcade.example/cli-login', { code: 'a&b=<c>' })).toBe(
      'https://arcade.example/cli-login?code=a%26b%3D%3Cc%3E',
    );
    expect(webApprovalPageLocation('https://arcade.example/cli-login', { code: ['x', 'y'] })).toBe(
      'https://arcade.example/cli-login',
    );
  });
});
