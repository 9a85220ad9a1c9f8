// @ts-check

/**
 * The page at `/`: the catalog links here, and a player who follows the link learns how to play
 * from a terminal, since this game has no browser client.
 * @param {{ selfUrl: string, name: string }} facts
 */
export function infoPage({ selfUrl, name }) {
  const esc = (/** @type {string} */ s) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(name)} — a coinop example game</title>
<style>
body { margin: 0; background: #125c34; color: #f5f5f0; font: 16px/1.5 system-ui, sans-serif; }
main { max-width: 40rem; margin: 0 auto; padding: 1rem; }
code, pre { background: #0b3a21; border-radius: 6px; }
pre { padding: 0.75rem; overflow-x: auto; white-space: pre-wrap; }
a { color: #ffe08a; }
</style>
</head>
<body>
<main>
<h1>${esc(name)}</h1>
<p>Higher or lower: a card shows; call whether the next one is higher or lower. Every right call
adds one to your streak, a card of the same rank is a push, and the first wrong call ends the
game. Your streak is your score; a higher streak is better.</p>
<p>This game is played from a terminal. Its server, here, deals the cards and keeps the score,
so the score on the leaderboard is the one it counted.</p>
<h2>Play it</h2>
<p>In a checkout of coinop, with the arcade running (<code>npm start</code>):</p>
<pre><code>npm run play -w @coinop/example-high-low</code></pre>
<p>or <code>node examples/high-low/client.mjs --server ${esc(selfUrl)}</code>. The client prints a
link and a code: open the link, sign in with your wallet, check the code and approve. Then pick a
tier (each costs a different amount of HST per play) and call the cards with
<kbd>h</kbd> or <kbd>l</kbd>.</p>
</main>
</body>
</html>
`;
}
