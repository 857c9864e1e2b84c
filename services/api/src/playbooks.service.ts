import type { Playbook, PlaybookCreate, PlaybookUpdate } from '@leadhook/contracts';
import { playbookSchema } from '@leadhook/contracts';
import { newId, type PrismaClient } from '@leadhook/db';
import { keyset, type Page, type PageRequest, pageOf } from './pagination.js';
import { live } from './scope.js';
import { type ErrorDetail, storedValidator } from './validation.js';

/** A playbook row as read here (the columns presentPlaybook needs). */
interface PlaybookRow {
  id: string;
  name: string;
  steps: unknown;
  createdAt: Date;
  updatedAt: Date;
}

const validateStoredSteps = storedValidator(playbookSchema.properties.steps);

/** The API shape of a row. Stored steps were validated on write; a row that no longer fits is a bug. */
export function presentPlaybook(row: PlaybookRow): Playbook {
  const steps = validateStoredSteps(row.steps);
  if (!steps.ok) throw new Error(`playbook ${row.id} has stored steps that fail the schema`);
  return {
    id: row.id,
    name: row.name,
    steps: steps.value,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export type PlaybookResult = { kind: 'ok'; playbook: Playbook } | { kind: 'not_found' };

export type DeletePlaybookResult =
  | { kind: 'deleted' }
  | { kind: 'not_found' }
  | { kind: 'in_use'; details: ErrorDetail[] };

export async function createPlaybook(
  prisma: PrismaClient,
  accountId: string,
  input: PlaybookCreate,
): Promise<Playbook> {
  const row = await prisma.playbook.create({
    data: { id: newId('playbook'), accountId, name: input.name, steps: input.steps ?? [] },
  });
  return presentPlaybook(row);
}

export async function listPlaybooks(
  prisma: PrismaClient,
  accountId: string,
  page: PageRequest,
): Promise<Page<Playbook>> {
  const rows = await prisma.playbook.findMany(keyset(page, { accountId, deletedAt: null }));
  return pageOf(rows, page, presentPlaybook);
}

export async function getPlaybook(
  prisma: PrismaClient,
  accountId: string,
  id: string,
): Promise<PlaybookResult> {
  const row = await prisma.playbook.findFirst({ where: live(accountId, id) });
  return row ? { kind: 'ok', playbook: presentPlaybook(row) } : { kind: 'not_found' };
}

export async function updatePlaybook(
  prisma: PrismaClient,
  accountId: string,
  id: string,
  input: PlaybookUpdate,
): Promise<PlaybookResult> {
  // updateMany scopes the write to the account in the same statement, so another
  // account's id can never be written even between a read and a write.
  const { count } = await prisma.playbook.updateMany({
    where: live(accountId, id),
    data: {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.steps !== undefined ? { steps: input.steps } : {}),
      updatedAt: new Date(),
    },
  });
  if (count === 0) return { kind: 'not_found' };
  return getPlaybook(prisma, accountId, id);
}

/**
 * Soft delete, refused while a live source still sends leads to the playbook.
 * The playbook row is locked FOR UPDATE; sources lock it FOR SHARE when they pick
 * it (sources.service), so a source cannot be pointed at it between the check and
 * the delete.
 */
export async function deletePlaybook(
  prisma: PrismaClient,
  accountId: string,
  id: string,
): Promise<DeletePlaybookResult> {
  return prisma.$transaction(async (tx): Promise<DeletePlaybookResult> => {
    const locked = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM playbooks
      WHERE id = ${id} AND account_id = ${accountId} AND deleted_at IS NULL
      FOR UPDATE`;
    if (locked.length === 0) return { kind: 'not_found' };
    const users = await tx.marketingSource.findMany({
      where: { playbookId: id, deletedAt: null },
      select: { id: true },
      orderBy: { id: 'asc' },
      take: 20,
    });
    if (users.length > 0) {
      return {
        kind: 'in_use',
        details: users.map((source) => ({
          field: null,
          code: 'playbook_in_use',
          message: `Marketing source ${source.id} uses this playbook; point it at another playbook or delete it first.`,
        })),
      };
    }
    await tx.playbook.update({ where: { id }, data: { deletedAt: new Date() } });
    return { kind: 'deleted' };
  });
}
