export type {
  Config,
  ContactHours,
  LogLevel,
  SettingName,
  SimulatedCallOutcome,
  SimulatedSmsOutcome,
} from './config.js';
export {
  ConfigError,
  contactHoursWiderThanLaw,
  loadConfig,
  loadConfigOrExit,
  parseContactHours,
  parseDuration,
  SECRET_SETTING_NAMES,
  SETTING_DEFAULTS,
  SETTING_NAMES,
} from './config.js';
