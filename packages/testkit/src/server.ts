// The server's entry points that other workspaces' tests start coinop through, so that only the
// kit reaches into the server's modules.
export { testConfig, webAppUrl, type Config } from 'coinop/config.js';
export { ManualClock } from 'coinop/ids.js';
export { startServer, type RunningServer } from 'coinop/main.js';
