// The game-sdk's browser bundle (`/game-sdk.min.js`) sets this global; types for the checker only.
import type { GameService, Origin } from '@coinop/game-sdk';

declare global {
  const Coinop: { GameService: typeof GameService; Origin: typeof Origin };
}
