import {
  SUPPRESSION_IMPORT_MAX_ROWS,
  suppressionCreateSchema,
  suppressionImportSchema,
  suppressionListQuerySchema,
  suppressionRemovalListQuerySchema,
} from '@leadhook/contracts';
import type { PrismaClient } from '@leadhook/db';
import { accountIdOf, apiKeyIdOf } from './auth.middleware.js';
import { notFound, validationFailed } from './errors.js';
import { pageRequestOf } from './pagination.js';
import { defineRoute } from './route.js';
import {
  addSuppression,
  csvImportRows,
  getSuppression,
  importSuppressions,
  jsonImportRows,
  listSuppressionRemovals,
  listSuppressions,
  normalizePhone,
  removeSuppression,
} from './suppressions.service.js';

/** The import's path and body limit (app.ts parses its body; docs/api.md, "Do-not-contact"). */
export const SUPPRESSION_IMPORT_PATH = '/suppressions/import';
export const SUPPRESSION_IMPORT_BODY_LIMIT = '1mb';

const NOT_A_PHONE =
  'validation_failed (details code `invalid`, field `phone`): the path does not name a dialable phone number.';

/** The path's phone in E.164, or the 422 a phone that is no number answers. */
function phoneOf(text: string): string {
  const phone = normalizePhone(text);
  if (phone === null) {
    throw validationFailed([{ field: 'phone', code: 'invalid', message: 'Not a phone number.' }]);
  }
  return phone;
}

const ITEM_NOT_FOUND = 'not_found: the phone is not on the list.';

/** The do-not-contact list (docs/api.md, "Do-not-contact"). Mounted behind requireApiKey. */
export const suppressionsRoutes = [
  defineRoute({
    method: 'post',
    path: '/suppressions',
    operationId: 'createSuppression',
    summary: 'Put a phone on the do-not-contact list',
    description:
      'The phone is normalised to E.164 as intake does. 201 with the new entry; a phone already listed keeps its first entry (reason, provenance, created_at), answered with 200.',
    tag: 'Do-not-contact',
    body: suppressionCreateSchema,
    success: { status: 201, schema: 'Suppression', description: 'The new entry.' },
    alsoSuccess: {
      status: 200,
      schema: 'Suppression',
      description: 'The phone was already listed: its first entry, unchanged.',
    },
    invalid:
      'validation_failed: the body does not fit the schema, or `phone` (code `invalid`) is not a dialable number.',
    handler: async ({ res, body }, prisma: PrismaClient) => {
      const phone = normalizePhone(body.phone);
      if (phone === null) {
        throw validationFailed([
          { field: 'phone', code: 'invalid', message: 'Not a phone number.' },
        ]);
      }
      const added = await addSuppression(
        prisma,
        accountIdOf(res),
        apiKeyIdOf(res),
        phone,
        body.reason,
        body.note ?? null,
      );
      res.status(added.created ? 201 : 200).json(added.suppression);
    },
  }),
  defineRoute({
    method: 'post',
    path: SUPPRESSION_IMPORT_PATH,
    operationId: 'importSuppressions',
    summary: `Put up to ${SUPPRESSION_IMPORT_MAX_ROWS} phones on the list at once`,
    description: `All or nothing: every row is checked, and if any is not a dialable phone the answer is 422 listing each bad row (field \`phones[i]\` for JSON, \`line n\` for CSV; code \`invalid\`) and nothing is stored. Otherwise the new phones are added with reason \`imported\` and the answer's import_id; phones already listed keep their first entry. More than ${SUPPRESSION_IMPORT_MAX_ROWS} rows is 422 \`too_many_rows\`; the body may be up to 1 MiB.`,
    tag: 'Do-not-contact',
    body: suppressionImportSchema,
    arrayBody: 'phones',
    csvBody:
      'RFC 4180 CSV, UTF-8: one phone per line (optionally in double quotes, a first line `phone` being a header), or a spreadsheet export whose header row names the phone column (`phone`, `phone number` or `phone_number`, any case) and whose other columns are not read. Blank lines are skipped. Lines are numbered from 1, the header included.',
    bodyLimit: '1 MiB',
    success: {
      status: 200,
      schema: 'SuppressionImportResult',
      description: 'How many phones were added and how many were already listed.',
    },
    invalid:
      'validation_failed: a bad row (each listed with its row or line number, code `invalid`), no rows (`required`), or more than 10,000 (`too_many_rows`); nothing was stored.',
    handler: async ({ req, res, body }, prisma: PrismaClient) => {
      const rows =
        typeof req.body === 'string' ? csvImportRows(req.body) : jsonImportRows(body.phones);
      const result = await importSuppressions(prisma, accountIdOf(res), apiKeyIdOf(res), rows);
      if (result.kind === 'invalid') throw validationFailed(result.details);
      const { kind: _kind, ...answer } = result;
      res.json(answer);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/suppressions',
    operationId: 'listSuppressions',
    summary: 'List the do-not-contact list, in phone order',
    description:
      'Optionally one reason only (`reason`), or the phones one import added (`import_id`).',
    tag: 'Do-not-contact',
    query: suppressionListQuerySchema,
    success: { status: 200, schema: 'SuppressionList', description: 'A page of entries.' },
    handler: async ({ res, query }, prisma: PrismaClient) => {
      const page = await listSuppressions(prisma, accountIdOf(res), pageRequestOf(query), {
        reason: query.reason,
        importId: query.import_id,
      });
      res.json(page);
    },
  }),
  defineRoute({
    method: 'get',
    path: '/suppressions/removals',
    operationId: 'listSuppressionRemovals',
    summary: 'List the phones taken off the list, newest first',
    description:
      "Every removal is kept: the phone, the reason and created_at its entry had, the API key that removed it, and when. `phone` (any notation) shows one phone's removals only.",
    tag: 'Do-not-contact',
    query: suppressionRemovalListQuerySchema,
    success: {
      status: 200,
      schema: 'SuppressionRemovalList',
      description: 'A page of removals.',
    },
    invalid:
      'validation_failed: the query does not fit the schema, or `phone` (code `invalid`) is not a dialable number.',
    handler: async ({ res, query }, prisma: PrismaClient) => {
      const phone = query.phone === undefined ? undefined : phoneOf(query.phone);
      res.json(
        await listSuppressionRemovals(prisma, accountIdOf(res), pageRequestOf(query), phone),
      );
    },
  }),
  defineRoute({
    method: 'get',
    path: '/suppressions/{phone}',
    operationId: 'getSuppression',
    summary: 'Look a phone up (any notation, URL-encoded)',
    tag: 'Do-not-contact',
    success: { status: 200, schema: 'Suppression', description: 'The entry.' },
    notFound: ITEM_NOT_FOUND,
    invalid: NOT_A_PHONE,
    handler: async ({ res, params }, prisma: PrismaClient) => {
      const entry = await getSuppression(prisma, accountIdOf(res), phoneOf(params.phone));
      if (!entry) throw notFound('phone on the list');
      res.json(entry);
    },
  }),
  defineRoute({
    method: 'delete',
    path: '/suppressions/{phone}',
    operationId: 'deleteSuppression',
    summary: 'Take a phone off the list (recorded)',
    description:
      "The only way off the list. The removal is recorded (the phone, the entry's reason and created_at, the API key that removed it, when). The phone can be texted again; a later STOP puts it back.",
    tag: 'Do-not-contact',
    success: { status: 204, description: 'Removed; the phone now answers 404.' },
    notFound: ITEM_NOT_FOUND,
    invalid: NOT_A_PHONE,
    handler: async ({ res, params }, prisma: PrismaClient) => {
      const phone = phoneOf(params.phone);
      if (!(await removeSuppression(prisma, accountIdOf(res), apiKeyIdOf(res), phone))) {
        throw notFound('phone on the list');
      }
      res.status(204).end();
    },
  }),
];
