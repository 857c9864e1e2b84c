/**
 * leadhook for Zapier: a Zapier Platform CLI app. Everything it does goes through
 * leadhook's management API with an API key of the account (README.md).
 */

const zapier = require('zapier-platform-core');
const authentication = require('./authentication');
const { addApiKey, explainErrors } = require('./lib/middleware');
const lists = require('./triggers/lists');
const newActivity = require('./triggers/new_activity');
const createLead = require('./creates/create_lead');
const reportActivity = require('./creates/report_activity');
const findLead = require('./searches/find_lead');

const triggers = [
  newActivity,
  lists.playbooks,
  lists.sources,
  lists.eventLabels,
  lists.outcomeLabels,
];

module.exports = {
  version: require('./package.json').version,
  platformVersion: zapier.version,
  // Every request goes through z.request, which Zapier logs already: core need
  // not patch Node's http and https modules to log the rest (a patch that would
  // also reach whatever else runs in the process, such as a test runner's).
  flags: { skipHttpPatch: true },
  authentication,
  beforeRequest: [addApiKey],
  afterResponse: [explainErrors],
  triggers: Object.fromEntries(triggers.map((t) => [t.key, t])),
  creates: { [createLead.key]: createLead, [reportActivity.key]: reportActivity },
  searches: { [findLead.key]: findLead },
  // Find Lead, and Create Lead when none is found: one step in the Zap editor.
  searchOrCreates: {
    [findLead.key]: {
      key: findLead.key,
      display: {
        label: 'Find or Create Lead',
        description:
          'Finds a lead by phone, email or external ID, and creates it in a marketing source if none is found.',
      },
      search: findLead.key,
      create: createLead.key,
    },
  },
};
