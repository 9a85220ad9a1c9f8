import { useArcadeSettings } from '../arcade-settings.js';

/**
 * A development arcade (`--demo`, `--dev-chain`, a faucet) says on every page that its HST is
 * test money: the log's warning reaches the operator, not the player who takes test HST.
 */
export function DevelopmentNotice() {
  const settings = useArcadeSettings();
  if (settings.status !== 'loaded' || !settings.settings.development) return null;
  return (
    <p className="development-notice" role="note">
      <strong>Development arcade:</strong> its HST is test money, worth nothing.
    </p>
  );
}
