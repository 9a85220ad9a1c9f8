/**
 * The approval page's stylesheet, served as /assets/cli-login.css (a file, so the CSP needs no
 * 'unsafe-inline'). System fonts only: the page works offline and loads nothing from elsewhere.
 */
export const cliLoginStyle = `:root {
  color-scheme: light dark;
  --bg: #f6f7f9;
  --card: #ffffff;
  --text: #1a1d21;
  --muted: #4a515b;
  --accent: #1d4ed8;
  --accent-text: #ffffff;
  --border: #c9ced6;
  --danger-bg: #fdecec;
  --danger-text: #8a1111;
  --ok-bg: #e7f6ec;
  --ok-text: #11612f;
  --focus: #f59e0b;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #111418;
    --card: #1b2027;
    --text: #eef1f5;
    --muted: #b4bcc7;
    --accent: #7aa2ff;
    --accent-text: #0b1020;
    --border: #3a424d;
    --danger-bg: #3b1515;
    --danger-text: #ffc9c9;
    --ok-bg: #12321f;
    --ok-text: #b6f0c8;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  font: 1rem/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;
}
main {
  max-width: 32rem;
  margin: 0 auto;
  padding: 1.5rem 1rem 3rem;
}
h1 { font-size: 1.6rem; line-height: 1.2; margin: 0 0 1rem; }
h2 { font-size: 1.15rem; margin: 0 0 0.5rem; }
section {
  background: var(--card);
  border: 1px solid var(--border);
  border-radius: 0.75rem;
  padding: 1rem;
  margin: 0 0 1rem;
}
[hidden] { display: none !important; }
.muted { color: var(--muted); }
dl { margin: 0 0 0.75rem; }
dt { font-weight: 600; color: var(--muted); font-size: 0.9rem; }
dd { margin: 0 0 0.75rem; overflow-wrap: anywhere; white-space: pre-wrap; }
.code {
  font: 700 2.25rem/1.2 ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace;
  letter-spacing: 0.12em;
  overflow-wrap: anywhere;
  white-space: normal;
}
.actions { display: flex; flex-wrap: wrap; gap: 0.75rem; }
button {
  font: inherit;
  font-weight: 600;
  min-height: 2.75rem;
  min-width: 8rem;
  padding: 0.6rem 1.2rem;
  border-radius: 0.5rem;
  border: 2px solid var(--accent);
  background: var(--accent);
  color: var(--accent-text);
  cursor: pointer;
}
fieldset {
  border: 1px solid var(--border);
  border-radius: 0.5rem;
  padding: 0.75rem 1rem;
  margin: 0 0 1rem;
}
legend { font-weight: 600; padding: 0 0.25rem; }
fieldset p { margin-top: 0; }
label { display: block; font-weight: 600; margin: 0 0 0.35rem; }
input {
  font: inherit;
  width: 100%;
  max-width: 12rem;
  min-height: 2.75rem;
  padding: 0.5rem 0.75rem;
  border: 1px solid var(--border);
  border-radius: 0.5rem;
  background: var(--bg);
  color: var(--text);
}
button.secondary { background: transparent; color: var(--text); border-color: var(--border); }
button:disabled { opacity: 0.55; cursor: progress; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 3px; }
h1:focus, h2:focus { outline: none; }
h1:focus-visible, h2:focus-visible { outline: 3px solid var(--focus); }
.alert:not(:empty) {
  background: var(--danger-bg);
  color: var(--danger-text);
  border-radius: 0.5rem;
  padding: 0.75rem 1rem;
  margin: 0 0 1rem;
}
.status:empty { margin: 0; }
.result-approved { background: var(--ok-bg); color: var(--ok-text); border-color: transparent; }
.result-denied, .result-expired { border-width: 2px; }
`;
