export {
  arcadeVaultAbi,
  arcadeVaultBytecode,
  contractsCompiler,
  hstAbi,
  hstBytecode,
} from '#artifacts';
export {
  deployArcadeContracts,
  type ArcadeDeployment,
  type DeployArcadeOptions,
  type VaultLimits,
} from './deploy.js';
export { bytes16ToUuid, uuidToBytes16 } from './ids.js';
export { HST_DECIMALS, UNITS_PER_HST } from './units.js';
export { withdrawalTypedData, type VaultWithdrawal } from './withdrawal.js';
