export type { AreaCodeInfo, LeadZones, ZoneBasis } from './area-codes.js';
export {
  areaCodeInfo,
  EVERY_US_ZONE,
  nanpAreaCode,
  TOLL_FREE_AREA_CODES,
  zonesForLead,
  zonesOfState,
} from './area-codes.js';
export type { ContactWindowDecision, ContactWindowInput } from './contact-window.js';
export {
  ContactWindowError,
  checkContactWindow,
  SEARCH_HORIZON_DAYS,
} from './contact-window.js';
export type { AreaCodeOverride } from './data/area-code-overrides.data.js';
export { AREA_CODE_OVERRIDES } from './data/area-code-overrides.data.js';
export type { HolidayDefinition, HolidayRule } from './data/holidays.data.js';
export { HOLIDAY_CALENDAR } from './data/holidays.data.js';
export type { StateRule, Weekday } from './data/state-rules.data.js';
export { STATE_RULES } from './data/state-rules.data.js';
export type { CalendarDate, Holiday } from './holidays.js';
export { holidayOn, holidaysOf } from './holidays.js';
export { applicableStateRules } from './rules.js';
