import { type Playbook, playbookCreateSchema, playbookUpdateSchema } from '@leadhook/contracts';
import { crudRoutes } from './crud.js';
import { ApiError, found } from './errors.js';
import {
  createPlaybook,
  deletePlaybook,
  getPlaybook,
  listPlaybooks,
  type PlaybookResult,
  updatePlaybook,
} from './playbooks.service.js';

function playbookOf(result: PlaybookResult): Playbook {
  return found(result, 'playbook').playbook;
}

/** `/playbooks` (docs/api.md, "Playbooks"). Mounted behind requireApiKey. */
export const playbooksRoutes = crudRoutes({
  path: '/playbooks',
  schema: 'Playbook',
  tag: 'Playbooks',
  noun: 'playbook',
  createBody: playbookCreateSchema,
  updateBody: playbookUpdateSchema,
  listReplicaRead: 'a page for browsing; a playbook just written is read by id, on the primary',
  deleteConflict: {
    status: 409,
    description: 'playbook_in_use: a marketing source still uses the playbook.',
  },
  create: createPlaybook,
  list: listPlaybooks,
  get: async (prisma, accountId, id) => playbookOf(await getPlaybook(prisma, accountId, id)),
  update: async (prisma, accountId, id, body) =>
    playbookOf(await updatePlaybook(prisma, accountId, id, body)),
  delete: async (prisma, accountId, id) => {
    const result = found(await deletePlaybook(prisma, accountId, id), 'playbook');
    if (result.kind === 'in_use') {
      throw new ApiError(
        409,
        'playbook_in_use',
        'Marketing sources still use this playbook.',
        result.details,
      );
    }
  },
});
