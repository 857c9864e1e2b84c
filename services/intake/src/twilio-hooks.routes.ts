/**
 * Twilio's callbacks (docs/operations.md, "Twilio's callbacks"), served on the
 * public intake service when PROVIDER=twilio:
 *
 *   POST /providers/twilio/status    a message's or call's status (the URL the
 *                                    sender passes with each request)
 *   POST /providers/twilio/inbound   an SMS to our number (the URL set on the
 *                                    Twilio number or Messaging Service)
 *
 * Twilio posts `application/x-www-form-urlencoded` fields and signs them with
 * X-Twilio-Signature: HMAC-SHA1, keyed by TWILIO_AUTH_TOKEN, of the URL it
 * called followed by the sorted fields. That URL is PUBLIC_BASE_URL plus the
 * request's path and query as they arrive here, so PUBLIC_BASE_URL must be the
 * address Twilio calls, a proxy in front included. No signature: 401; a wrong
 * one: 403; either way nothing is read or changed.
 *
 * Every answer Twilio can act on is a 200: a final status whose SID no message
 * holds yet is held for the worker's commit of that SID (a callback that
 * overtook it) rather than refused, which Twilio would not retry and which
 * would only fill its debugger with errors (a message of another application,
 * on a Messaging Service's own callback URL, is held too, and deleted by the
 * retention job); and an inbound message is answered with empty TwiML, so
 * Twilio sends no reply of ours.
 *
 * Transport only: the work is packages/providers' receiveInbound,
 * receiveCarrierStatus and holdCarrierStatus, the activity path's entrances
 * for a provider.
 */
import { setTimeout } from 'node:timers/promises';
import { type ErrorItem, errorBody } from '@leadhook/intake-core';
import {
  type CarrierStatus,
  type CarrierStatusHoldResult,
  EMPTY_TWIML,
  holdCarrierStatus,
  isTwilioSignatureValid,
  type ProviderHookDeps,
  receiveCarrierStatus,
  receiveInbound,
  type TwilioParams,
  twilioParam,
  twilioParams,
  twilioStatusReport,
} from '@leadhook/providers';
import bodyParser from 'body-parser';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { answerUnlessDatabaseDown } from './provider-hooks.routes.js';

/**
 * The waits before a final status naming an unknown SID is looked for again
 * (ms): the worker commits the SID right after Twilio's 201, so a callback
 * that overtakes that commit usually finds it on a second look; after these
 * 1.4 s it is held for the commit (holdCarrierStatus). Looking again first
 * keeps the table of held statuses for the rare late commit.
 */
export const NOT_FOUND_RETRY_MS = [200, 400, 800] as const;

export const TWILIO_HOOK_PATHS = {
  inbound: '/providers/twilio/inbound',
  status: '/providers/twilio/status',
} as const;

const FORM_TYPE = 'application/x-www-form-urlencoded';
const PROVIDER = 'twilio';

export interface TwilioHookOptions extends ProviderHookDeps {
  /** TWILIO_AUTH_TOKEN: the key of X-Twilio-Signature. */
  authToken: string;
  /**
   * PUBLIC_BASE_URL, without a trailing slash: with the request's path and
   * query, the URL Twilio signed. Absent: the request's own protocol and Host.
   */
  publicBaseUrl?: string;
  maxBodyBytes: number;
}

export function twilioHookRoutes(options: TwilioHookOptions): Router {
  const router = express.Router();
  // The raw bytes: the fields are checked exactly as Twilio sent them.
  const raw = bodyParser.raw({ type: () => true, limit: options.maxBodyBytes });

  const guard =
    (handle: (res: Response, params: TwilioParams) => Promise<void>) =>
    async (req: Request, res: Response, next: NextFunction) => {
      const signature = req.get('x-twilio-signature');
      if (!signature) {
        res
          .status(401)
          .json(errorBody('signature_required', 'Sign the request: X-Twilio-Signature.'));
        return;
      }
      const isForm = mediaTypeOf(req) === FORM_TYPE;
      const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
      const params = isForm ? twilioParams(body) : {};
      const base = options.publicBaseUrl ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
      const url = base + req.originalUrl;
      if (!isTwilioSignatureValid({ authToken: options.authToken, signature, url, params })) {
        res.status(403).json(errorBody('signature_invalid', 'The signature does not match.'));
        return;
      }
      if (!isForm) {
        res.status(415).json(errorBody('unsupported_media_type', `Send ${FORM_TYPE}.`));
        return;
      }
      await answerUnlessDatabaseDown(res, next, () => handle(res, params));
    };

  router.post(
    TWILIO_HOOK_PATHS.status,
    raw,
    guard(async (res, params) => {
      const receivedAt = new Date();
      const report = twilioStatusReport(params);
      if (!report) {
        res.status(422).json({
          status: 'rejected',
          errors: [
            missing('MessageSid', 'with MessageStatus, the message the status is of'),
            missing('CallSid', 'with CallStatus, the call the status is of'),
          ],
        });
        return;
      }
      const callback: CarrierStatus = { provider: PROVIDER, ...report };
      let result: CarrierStatusHoldResult = await receiveCarrierStatus(options, callback);
      // Twilio may call back before the worker has committed the SID its 201
      // gave (milliseconds after it, or much later when the worker was slow,
      // paused or killed): looked for again, briefly, then held for that
      // commit, since Twilio does not retry a 200. A progress report (status
      // null) changes nothing even when found: it is neither looked for again
      // nor held.
      if (report.status !== null) {
        for (const waitMs of NOT_FOUND_RETRY_MS) {
          if (result.kind !== 'message_not_found') break;
          await setTimeout(waitMs);
          result = await receiveCarrierStatus(options, callback);
        }
        if (result.kind === 'message_not_found') {
          result = await holdCarrierStatus(options, callback, receivedAt);
        }
      }
      switch (result.kind) {
        case 'recorded':
          res.status(200).json({ status: 'recorded' });
          return;
        case 'unchanged':
          res.status(200).json({ status: 'unchanged' });
          return;
        case 'held':
          res.status(200).json({ status: 'held', reason: 'message_not_found' });
          return;
        case 'message_not_found':
          res.status(200).json({ status: 'ignored', reason: 'message_not_found' });
          return;
      }
    }),
  );

  router.post(
    TWILIO_HOOK_PATHS.inbound,
    raw,
    guard(async (res, params) => {
      const messageId = twilioParam(params, 'MessageSid') ?? twilioParam(params, 'SmsSid');
      const from = twilioParam(params, 'From');
      const text = twilioParam(params, 'Body');
      const errors: ErrorItem[] = [
        ...(messageId ? [] : [missing('MessageSid', 'the id of the message')]),
        ...(from ? [] : [missing('From', 'the sender’s phone number')]),
        ...(text === undefined ? [missing('Body', 'the text of the message')] : []),
      ];
      if (errors.length > 0 || !messageId || !from || text === undefined) {
        res.status(422).json({ status: 'rejected', errors });
        return;
      }
      // Recorded, a retry of a recorded one, or from a number leadhook never
      // wrote to: Twilio is told it was received, and answers nothing.
      await receiveInbound(options, {
        phone: from,
        body: text,
        carrier: { provider: PROVIDER, messageId },
      });
      res.status(200).type('text/xml').send(EMPTY_TWIML);
    }),
  );
  return router;
}

function mediaTypeOf(req: Request): string {
  return (req.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

function missing(field: string, what: string): ErrorItem {
  return { field, code: 'required', message: `Send ${field}: ${what}.` };
}
