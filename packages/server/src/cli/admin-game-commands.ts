import { id, numberOrText, PAGE_OPTIONS, pageQuery, type AdminCommand } from './admin-spec.js';

/**
 * `coinop admin game|publish|scores|leaderboard|tournament …`: games, their publish requests,
 * voiding their scores, their leaderboards (tiers) and tournaments.
 */

export const GAME_COMMANDS: readonly AdminCommand[] = [
  {
    words: ['game', 'list'],
    description: 'list games: state (published, unpublished, suspended), developer, tiers',
    options: PAGE_OPTIONS('games'),
    request: (v) => ({ method: 'GET', path: `/admin/games${pageQuery(v)}` }),
  },
  {
    words: ['game', 'publish'],
    description: "list a game in the arcade's catalog",
    options: [{ flags: '--game <id>', description: 'game id', required: true }],
    request: (v) => ({ method: 'POST', path: `/admin/games/${id(v['game'])}/publish` }),
  },
  {
    words: ['game', 'unpublish'],
    description:
      'take a game off the catalog: only its developer and testers may play it; open plays ' +
      'keep settling',
    options: [{ flags: '--game <id>', description: 'game id', required: true }],
    request: (v) => ({ method: 'POST', path: `/admin/games/${id(v['game'])}/unpublish` }),
  },
  {
    words: ['game', 'suspend'],
    description: 'refuse new plays of a game and void its open ones (their HST goes back)',
    options: [{ flags: '--game <id>', description: 'game id', required: true }],
    request: (v) => ({ method: 'POST', path: `/admin/games/${id(v['game'])}/suspend` }),
  },
  {
    words: ['game', 'resume'],
    description: 'lift a suspension: the game takes plays again',
    options: [{ flags: '--game <id>', description: 'game id', required: true }],
    request: (v) => ({ method: 'POST', path: `/admin/games/${id(v['game'])}/resume` }),
  },
  {
    words: ['publish', 'list'],
    description: 'the publish queue: pending requests with their games, oldest first',
    options: [
      {
        flags: '--state <state>',
        description: 'pending (default), approved, declined or withdrawn',
      },
      { flags: '--all', description: 'requests in every state' },
      { flags: '--limit <n>', description: 'how many, oldest first: 1 to 100 (default 20)' },
      {
        flags: '--after <id>',
        description: 'the `next` of the page before, for the page after it',
      },
    ],
    request: (v) => {
      const query = new URLSearchParams();
      for (const name of ['state', 'limit', 'after']) {
        const value = v[name];
        if (value !== undefined) query.set(name, value);
      }
      // An on/off flag: commander gives true, not text.
      if ((v as Record<string, unknown>)['all'] === true) query.set('all', 'true');
      const search = query.size > 0 ? `?${query}` : '';
      return { method: 'GET', path: `/admin/publish-requests${search}` };
    },
  },
  {
    words: ['publish', 'approve'],
    description: 'approve a publish request: its game is listed in the catalog',
    argument: { name: 'request', description: 'the publish request id' },
    options: [],
    request: (v) => ({
      method: 'POST',
      path: `/admin/publish-requests/${id(v['request'])}/approve`,
    }),
  },
  {
    words: ['publish', 'decline'],
    description: 'decline a publish request with a reason the developer reads in the portal',
    argument: { name: 'request', description: 'the publish request id' },
    options: [{ flags: '--reason <text>', description: 'why, for the developer', required: true }],
    request: (v) => ({
      method: 'POST',
      path: `/admin/publish-requests/${id(v['request'])}/decline`,
      body: { reason: v['reason'] },
    }),
  },
  {
    words: ['scores', 'void'],
    description:
      'void a score: it leaves its board, and the payouts it caused that are still held are ' +
      're-settled to whoever should have had them (released payouts are not taken back)',
    argument: { name: 'score', description: 'the score id' },
    options: [
      {
        flags: '--reason <text>',
        description: 'why, 1 to 500 characters; the player reads it in their history',
        required: true,
      },
    ],
    request: (v) => ({
      method: 'POST',
      path: `/admin/scores/${id(v['score'])}/void`,
      body: { reason: v['reason'] },
    }),
  },
  {
    words: ['leaderboard', 'create'],
    description: 'add a leaderboard (tier) to a game',
    options: [
      { flags: '--game <id>', description: 'game id', required: true },
      { flags: '--name <name>', description: 'tier name', required: true },
      { flags: '--cost <hst>', description: 'cost of a play, whole HST', required: true },
      { flags: '--leaders-max <n>', description: 'how many leaders the board shows (default 10)' },
    ],
    request: (v) => ({
      method: 'POST',
      path: '/admin/leaderboards',
      body: {
        gameId: v['game'],
        name: v['name'],
        cost: numberOrText(v['cost']),
        ...(v['leadersMax'] === undefined ? {} : { leadersMax: numberOrText(v['leadersMax']) }),
      },
    }),
  },
  {
    words: ['tournament', 'create'],
    description:
      "create a tournament of a game, its guarantee funded by the arcade's account " +
      '(docs/concepts/tournaments.md)',
    options: [
      { flags: '--game <id>', description: 'game id', required: true },
      { flags: '--name <name>', description: 'shown in the catalog', required: true },
      {
        flags: '--entry-fee <hst>',
        description: 'HST a play costs ("0" for free)',
        required: true,
      },
      {
        flags: '--starts-at <time>',
        description: 'RFC 3339 time of the first round (default now)',
      },
      { flags: '--ends-at <time>', description: 'end of the first round (or --duration)' },
      { flags: '--duration <seconds>', description: "a round's length: 60 to 31622400" },
      { flags: '--recurrence <cron>', description: "five-field cron (UTC) of the rounds' starts" },
      { flags: '--places <bp,bp,…>', description: 'payout by place in basis points (sum 10000)' },
      { flags: '--top-percent <q>', description: 'or: the top q% of the ranked players equally' },
      { flags: '--guarantee <hst>', description: "HST the arcade puts in each round's pool" },
      { flags: '--max-entrants <n>', description: 'at most this many players per round' },
      { flags: '--max-attempts <n>', description: 'at most this many plays per player per round' },
    ],
    request: (v) => {
      const payoutTable: Record<string, unknown> = {};
      if (v['places'] !== undefined)
        payoutTable['places'] = v['places'].split(',').map(numberOrText);
      if (v['topPercent'] !== undefined) payoutTable['topPercent'] = numberOrText(v['topPercent']);
      const optional: Record<string, unknown> = {
        endsAt: v['endsAt'],
        durationSeconds: numberOrText(v['duration']),
        recurrence: v['recurrence'],
        guaranteedPool: v['guarantee'],
        maxEntrants: numberOrText(v['maxEntrants']),
        maxAttempts: numberOrText(v['maxAttempts']),
      };
      return {
        method: 'POST',
        path: '/admin/tournaments',
        body: {
          gameId: v['game'],
          name: v['name'],
          entryFee: v['entryFee'],
          startsAt: v['startsAt'] ?? new Date().toISOString(),
          payoutTable,
          ...Object.fromEntries(Object.entries(optional).filter(([, x]) => x !== undefined)),
        },
      };
    },
  },
  {
    words: ['tournament', 'list'],
    description: 'list tournaments: those with a round to come first, each with its current round',
    options: [],
    request: () => ({ method: 'GET', path: '/admin/tournaments' }),
  },
  {
    words: ['tournament', 'stop'],
    description: 'stop a tournament: its current round runs to its end, and no round follows',
    argument: { name: 'tournament', description: 'the tournament id' },
    options: [],
    request: (v) => ({
      method: 'POST',
      path: `/admin/tournaments/${id(v['tournament'])}/stop`,
    }),
  },
];
