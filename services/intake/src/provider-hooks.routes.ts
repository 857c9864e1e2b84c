/**
 * The messaging provider's webhooks (docs/operations.md, "Provider hooks": replies reach leadhook "through
 * POST /leads/{id}/activities … or through the provider's inbound hook; both take
 * the same path"). On the public intake service, because a carrier needs a public
 * URL:
 *
 *   POST /providers/{provider}/inbound   a reply: message_received (STOP → opted_out)
 *   POST /providers/{provider}/status    a late status of a message or call we sent
 *
 * Signed like leadhook's own webhooks (Standard Webhooks): `webhook-id`,
 * `webhook-timestamp` (unix seconds, at most 5 minutes away from our clock) and
 * `webhook-signature` (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with the
 * deployment's PROVIDER_WEBHOOK_SECRET, over the raw body bytes). No signature:
 * 401; a wrong or stale one: 403; either way nothing is read or changed. The body
 * is the carrier's form (`application/x-www-form-urlencoded`) or JSON, with our
 * field names or Twilio's (MessageSid, From, Body, MessageStatus, CallSid,
 * CallStatus). Idempotent on the carrier's message id: a retried inbound message
 * is recorded once; a repeated status changes nothing.
 *
 * Transport only: the work is packages/providers' receiveInbound and
 * receiveStatusCallback, the activity path's entrances for a provider.
 */
import { isDatabaseUnavailable } from '@leadhook/db';
import { type ErrorItem, errorBody, retryableBody } from '@leadhook/intake-core';
import {
  PROVIDER_NAMES,
  type ProviderHookDeps,
  receiveInbound,
  receiveStatusCallback,
} from '@leadhook/providers';
import { verify } from '@leadhook/webhooks';
import bodyParser from 'body-parser';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { sendNotFound } from './intake.routes.js';

export const PROVIDER_HOOK_PATHS = {
  inbound: '/providers/:provider/inbound',
  status: '/providers/:provider/status',
} as const;

/** How far `webhook-timestamp` may be from our clock (replayed requests are refused). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

export interface ProviderHookOptions extends ProviderHookDeps {
  /** PROVIDER_WEBHOOK_SECRET (`whsec_…`). */
  secret: string;
  maxBodyBytes: number;
  /** The clock the timestamp is checked against (tests). */
  now?: () => Date;
}

type Fields = Record<string, string>;

/**
 * Runs a carrier hook's handler once its request is authenticated. With the
 * database down nothing was recorded, so the answer is 503 with Retry-After:
 * carriers retry a 5xx, and the callback is recorded when it comes back.
 */
export async function answerUnlessDatabaseDown(
  res: Response,
  next: NextFunction,
  handle: () => Promise<void>,
): Promise<void> {
  try {
    await handle();
  } catch (err) {
    if (isDatabaseUnavailable(err)) {
      res
        .status(503)
        .set('Retry-After', '5')
        .json(retryableBody('unavailable', 'Try again shortly; nothing was recorded.'));
      return;
    }
    next(err);
  }
}

export function providerHookRoutes(options: ProviderHookOptions): Router {
  const router = express.Router();
  // The raw bytes: the signature is over the body exactly as sent.
  const raw = bodyParser.raw({ type: () => true, limit: options.maxBodyBytes });
  const now = options.now ?? (() => new Date());

  const guard =
    (handle: (req: Request, res: Response, fields: Fields, provider: string) => Promise<void>) =>
    async (req: Request, res: Response, next: NextFunction) => {
      const provider = String(req.params.provider);
      if (!signsStandardWebhooks(provider)) return sendNotFound(res);
      const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const refused = checkSignature(req, body, options.secret, now());
      if (refused) {
        res.status(refused.status).json(errorBody(refused.code, refused.message));
        return;
      }
      const fields = parseFields(req, body);
      if (fields === 'unsupported') {
        res
          .status(415)
          .json(errorBody('unsupported_media_type', `Send ${FORM_TYPE} or ${JSON_TYPE}.`));
        return;
      }
      if (fields === 'malformed') {
        res
          .status(400)
          .json(errorBody('malformed_body', 'The body could not be parsed as an object.'));
        return;
      }
      await answerUnlessDatabaseDown(res, next, () => handle(req, res, fields, provider));
    };

  router.post(
    PROVIDER_HOOK_PATHS.inbound,
    raw,
    guard(async (_req, res, fields, provider) => {
      const messageId = first(fields, 'message_id', 'MessageSid', 'SmsSid', 'id');
      const from = first(fields, 'from', 'From');
      const text = first(fields, 'body', 'Body', 'text');
      const errors: ErrorItem[] = [
        ...(messageId ? [] : [missing('message_id', 'the carrier’s id of the message')]),
        ...(from ? [] : [missing('from', 'the sender’s phone number')]),
        ...(text === undefined ? [missing('body', 'the text of the reply')] : []),
      ];
      if (errors.length > 0 || !messageId || !from || text === undefined) {
        res.status(422).json({ status: 'rejected', errors });
        return;
      }
      const result = await receiveInbound(options, {
        phone: from,
        body: text,
        carrier: { provider, messageId },
      });
      switch (result.kind) {
        case 'recorded':
          res.status(200).json({ status: 'recorded', lead_id: result.leadId });
          return;
        case 'duplicate':
          res.status(200).json({ status: 'duplicate', lead_id: result.leadId });
          return;
        case 'lead_not_found':
          // A reply from a number we never wrote to: nothing to record, and
          // nothing a retry would change, so the carrier is told it was received.
          res.status(200).json({ status: 'ignored', reason: 'lead_not_found' });
          return;
      }
    }),
  );

  router.post(
    PROVIDER_HOOK_PATHS.status,
    raw,
    guard(async (_req, res, fields) => {
      const messageId = first(fields, 'message_id', 'MessageSid', 'SmsSid', 'CallSid', 'id');
      const status = first(fields, 'status', 'MessageStatus', 'SmsStatus', 'CallStatus');
      const errors: ErrorItem[] = [
        ...(messageId ? [] : [missing('message_id', 'the id of the message or call')]),
        ...(status ? [] : [missing('status', 'its new status')]),
      ];
      if (errors.length > 0 || !messageId || !status) {
        res.status(422).json({ status: 'rejected', errors });
        return;
      }
      const result = await receiveStatusCallback(options, {
        providerMessageId: messageId,
        status,
      });
      switch (result.kind) {
        case 'recorded':
          res.status(200).json({ status: 'recorded' });
          return;
        case 'unchanged':
          res.status(200).json({ status: 'unchanged' });
          return;
        case 'message_not_found':
          res
            .status(404)
            .json(errorBody('message_not_found', 'No message or call has this id.', 'message_id'));
          return;
        case 'invalid_status':
          res
            .status(422)
            .json(
              errorBody(
                'invalid',
                'An SMS is delivered, failed or undeliverable; a call is answered, voicemail, failed or undeliverable.',
                'status',
              ),
            );
          return;
      }
    }),
  );
  return router;
}

/**
 * The providers that sign with PROVIDER_WEBHOOK_SECRET. Twilio signs its own
 * way, on its own routes (twilio-hooks.routes.ts), served only with
 * PROVIDER=twilio: here it is unknown, so it answers 404 otherwise.
 */
function signsStandardWebhooks(provider: string): boolean {
  return provider !== 'twilio' && (PROVIDER_NAMES as readonly string[]).includes(provider);
}

interface Refusal {
  status: 401 | 403;
  code: string;
  message: string;
}

/** Standard Webhooks verification of the raw body; null when it is signed by our secret. */
export function checkSignature(
  req: Request,
  body: Buffer,
  secret: string,
  now: Date,
): Refusal | null {
  const result = verify({
    secret,
    id: req.get('webhook-id'),
    timestamp: req.get('webhook-timestamp'),
    signature: req.get('webhook-signature'),
    body: body.toString('utf8'),
    now,
    toleranceSeconds: SIGNATURE_TOLERANCE_SECONDS,
  });
  if (result.ok) return null;
  switch (result.reason) {
    case 'missing':
      return {
        status: 401,
        code: 'signature_required',
        message: 'Sign the request: webhook-id, webhook-timestamp and webhook-signature.',
      };
    case 'timestamp':
      return {
        status: 403,
        code: 'signature_invalid',
        message: `webhook-timestamp must be unix seconds within ${SIGNATURE_TOLERANCE_SECONDS} s of now.`,
      };
    case 'mismatch':
      return { status: 403, code: 'signature_invalid', message: 'The signature does not match.' };
  }
}

/** The body's fields as strings: a JSON object's string/number values, or a form. */
function parseFields(req: Request, body: Buffer): Fields | 'unsupported' | 'malformed' {
  const mediaType = (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  const text = body.toString('utf8');
  if (mediaType === FORM_TYPE) return Object.fromEntries(new URLSearchParams(text));
  if (mediaType !== JSON_TYPE) return 'unsupported';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'malformed';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return 'malformed';
  const fields: Fields = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string') fields[key] = value;
    else if (typeof value === 'number') fields[key] = String(value);
  }
  return fields;
}

function first(fields: Fields, ...names: string[]): string | undefined {
  for (const name of names) if (Object.hasOwn(fields, name)) return fields[name];
  return undefined;
}

function missing(field: string, what: string): ErrorItem {
  return { field, code: 'required', message: `Send ${field}: ${what}.` };
}
