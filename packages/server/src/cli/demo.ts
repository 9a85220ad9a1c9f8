import { Option, type Command } from 'commander';
import { CliError, ExitCodes } from './cli-error.js';

/** Where a local `coinop serve` puts the web app, which hosts the demo arcade. */
const DEFAULT_WEB_URL = 'http://127.0.0.1:8082';

/**
 * `coinop demo --game-url URL`: the address of the demo arcade (spec 1.4) hosting that game, with
 * mock data and a log of every bridge message. It prints the link; `coinop serve` must be running
 * (or `--web-url` names another arcade's web app).
 */
export function addDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('print the demo arcade address that hosts your game with mock data')
    .requiredOption('--game-url <url>', 'where your game is served (http or https)')
    .addOption(
      new Option('--web-url <url>', 'the arcade web app')
        .env('COINOP_WEB_URL')
        .default(DEFAULT_WEB_URL),
    )
    .action((options: { gameUrl: string; webUrl: string }) => {
      process.stdout.write(`${demoUrl(options.gameUrl, options.webUrl)}\n`);
    });
}

/** The demo page address for a game, refusing anything but absolute http(s) URLs. */
export function demoUrl(gameUrl: string, webUrl: string): string {
  const game = httpUrl(gameUrl, '--game-url');
  const web = httpUrl(webUrl, '--web-url');
  const demo = new URL('/demo', web);
  demo.searchParams.set('game', game.toString());
  return demo.toString();
}

function httpUrl(value: string, flag: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError(`${flag} must be an absolute http(s) URL, got ${value}`, ExitCodes.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new CliError(
      `${flag} must be an http or https URL, got ${url.protocol}`,
      ExitCodes.usage,
    );
  }
  return url;
}
