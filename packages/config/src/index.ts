export type {
  Config,
  ContactHours,
  HttpServerSettings,
  LogLevel,
  ProviderKind,
  RedisClusterSettings,
  SettingName,
  SimulatedCallOutcome,
  SimulatedSmsOutcome,
  TwilioSettings,
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
