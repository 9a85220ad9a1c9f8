// Moved to credentials/wallet-signature.ts (issue 29); re-exported so the API routes' imports
// stay as they were until they are pointed at credentials/ directly.
export * from '../credentials/wallet-signature.js';
