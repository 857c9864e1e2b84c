export type { Config, ContactHours, LogLevel } from './config.js';
export {
  ConfigError,
  contactHoursWiderThanLaw,
  loadConfig,
  loadConfigOrExit,
  parseContactHours,
  parseDuration,
} from './config.js';
