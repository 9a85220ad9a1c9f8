// Moved to credentials/player-token-services.ts (issue 29); re-exported so the API routes'
// imports stay as they were until they are pointed at credentials/ directly.
export * from '../credentials/player-token-services.js';
