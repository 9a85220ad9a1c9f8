import type { Config, ConfigInput } from '../config.js';
import { CliError, ExitCodes } from './cli-error.js';

/** The config of a command's flags and the environment; a bad value is a usage error. */
export async function loadCliConfig(flags: ConfigInput): Promise<Config> {
  const { loadConfig, ConfigError } = await import('../config.js');
  try {
    return loadConfig(flags);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, ExitCodes.usage);
    throw error;
  }
}
