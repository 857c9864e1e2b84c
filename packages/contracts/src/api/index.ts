export * from './account.schema.js';
export * from './activity.schema.js';
export * from './common.schema.js';
export * from './intake-response.schema.js';
export * from './integration.schema.js';
export * from './lead.schema.js';
export * from './marketing-source.schema.js';
export * from './playbook.schema.js';
