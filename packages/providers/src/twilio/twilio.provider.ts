import type { TwilioSettings } from '@leadhook/config';
import { newId, type Pool } from '@leadhook/db';
import type { Logger } from '@leadhook/observability';
import {
  type CallResult,
  type CallStatus,
  isCallStatus,
  isSmsStatus,
  type MessageRef,
  type MessagingProvider,
  type PlaceCallRequest,
  ProviderCredentialsError,
  ProviderUnavailableError,
  type SendFailure,
  type SendFailureReason,
  type SendSmsRequest,
  type SmsResult,
} from '../provider.js';
import { twilioListedStatus } from '../twilio-callbacks.js';
import { type CreateAnswer, type ListedResource, TwilioRest } from './twilio.rest.js';

export interface TwilioProviderOptions {
  /** provider_messages is written through it, each statement committing on its own. */
  pool: Pool;
  settings: TwilioSettings;
  /** PUBLIC_BASE_URL: the status callback is `${publicBaseUrl}/providers/twilio/status`. */
  publicBaseUrl: string;
  /** Sends tried per step before it gives up on 429/5xx: PROVIDER_RETRY_SCHEDULE's length + 1. */
  maxAttempts: number;
  logger?: Logger;
  /** How long one REST call may take (ms). Default 15 s. */
  timeoutMs?: number;
}

/** A provider_messages row as the provider reads it. */
interface MessageRow {
  id: string;
  channel: 'sms' | 'call';
  to: string;
  body: string | null;
  status: string;
  carrier_id: string | null;
  attempts: number;
  error_code: string | null;
  created_at: Date;
  /** Read with a row a previous try left: intake holds statuses of its carrier id. */
  held?: boolean;
}

type Channel = 'sms' | 'call';
type Answer = {
  status: string;
  providerMessageId: string;
  failure?: SendFailure;
  heldStatuses?: boolean;
};

/** Twilio's error codes that mean a status of ours (docs/operations.md, "Twilio"). */
const OPTED_OUT_CODES = new Set([21610]);
const UNDELIVERABLE_CODES = new Set([21211, 21614]);
const CREDENTIALS_CODES = new Set([20003]);

/** Clock skew allowed between us and Twilio when matching a lost send (ms). */
const SKEW_MS = 5 * 60_000;

const COLUMNS = 'id, channel, "to", body, status, carrier_id, attempts, error_code, created_at';

/**
 * A row read back (table alias m) with whether statuses of its carrier id are
 * held: the id was committed by provider_message_adopt, after which intake
 * keeps none for it, so the answer is final.
 */
const COLUMNS_HELD = `${COLUMNS}, EXISTS (SELECT 1 FROM provider_held_statuses h
  WHERE h.provider = m.provider AND h.carrier_id = m.carrier_id) AS held`;

/**
 * Twilio behind the provider interface (docs/operations.md, "Twilio"): an SMS is a
 * POST to the Messages resource, a call a POST to Calls with TwiML that says the
 * step's script; both answer `queued` (what became of them comes by status
 * callback to intake).
 *
 * At most once per step, through a crash: Twilio takes no idempotency key, so
 * the step's provider_messages row (keyed by the step's idempotency key) is
 * committed as `sending` before the carrier is asked, and set to `queued` with
 * Twilio's sid after its 201. A retried step that finds its row answers it
 * unless it is `unsent` (the carrier answered and sent nothing: sent again)
 * or still `sending` (the answer was lost): then Twilio's list is searched for
 * the message or call, which is adopted if found; if not, the step gives up as
 * failed with reason send_unconfirmed rather than risk texting the lead twice.
 *
 * Twilio's status callbacks may come before the sid is committed (a slow
 * commit, a worker killed after the 201): intake holds what it cannot place
 * (provider_held_statuses), and every commit of a sid here says whether such
 * statuses wait (`heldStatuses`), for the step to apply in its transaction.
 */
export class TwilioProvider implements MessagingProvider {
  readonly name = 'twilio';
  private readonly rest: TwilioRest;
  private readonly statusCallback: string;

  constructor(private readonly options: TwilioProviderOptions) {
    this.rest = new TwilioRest(options.settings, options.timeoutMs ?? 15_000);
    this.statusCallback = `${options.publicBaseUrl}/providers/twilio/status`;
  }

  async sendSms(request: SendSmsRequest): Promise<SmsResult> {
    const { settings } = this.options;
    const form: Record<string, string> = {
      To: request.to,
      Body: request.body,
      StatusCallback: this.statusCallback,
      ...(settings.messagingServiceSid
        ? { MessagingServiceSid: settings.messagingServiceSid }
        : { From: settings.fromNumber ?? '' }),
    };
    const answer = await this.send('sms', request.to, request.body, request, form);
    if (!isSmsStatus(answer.status)) {
      throw new Error(`provider message ${answer.providerMessageId} is not an SMS`);
    }
    return { ...answer, status: answer.status };
  }

  async placeCall(request: PlaceCallRequest): Promise<CallResult> {
    const script = request.script ?? null;
    const from = this.options.settings.fromNumber;
    const form: Record<string, string> = {
      To: request.to,
      From: from ?? '',
      Twiml: await twiml(script),
      // A machine gets the script after its greeting's beep (voicemail); a
      // person hears it at once (answered): AnsweredBy in the status callback.
      MachineDetection: 'DetectMessageEnd',
      StatusCallback: this.statusCallback,
      StatusCallbackEvent: 'completed',
    };
    const answer = await this.send('call', request.to, script, request, from ? form : null);
    if (!isCallStatus(answer.status)) {
      throw new Error(`provider message ${answer.providerMessageId} is not a call`);
    }
    return { ...answer, status: answer.status as CallStatus };
  }

  /**
   * The at-most-once send of one step: its row first (committed), then the
   * carrier, then the row again. `form` null: nothing can be sent (a call with
   * no TWILIO_FROM_NUMBER).
   */
  private async send(
    channel: Channel,
    to: string,
    body: string | null,
    request: { idempotencyKey: string; ref: MessageRef },
    form: Record<string, string> | null,
  ): Promise<Answer> {
    const existing = await this.claimRow(channel, to, body, request);
    let row = existing.row;
    if (!existing.fresh) {
      if (row.status === 'sending') return this.reconcile(row);
      if (row.status !== 'unsent') return answerOf(row);
      const again = await this.resend(row.id);
      if (!again) return answerOf(await this.readRow(row.id));
      row = again;
    }
    if (form === null) {
      this.options.logger?.warn(
        { provider_message_id: row.id },
        'twilio: a call step without TWILIO_FROM_NUMBER fails; set it to place calls',
      );
      return this.finish(row.id, 'failed', null, 'no_from_number');
    }
    const created = await this.rest.create(channel === 'sms' ? 'Messages' : 'Calls', form);
    return this.settle(row, created);
  }

  /** What the carrier's answer to the creating POST makes of the row. */
  private async settle(row: MessageRow, created: CreateAnswer): Promise<Answer> {
    if (created.kind === 'created') return this.adopt(row.id, created.sid);
    if (created.kind === 'no_answer') {
      if (created.reached) {
        // Maybe sent: the row stays `sending`, and the next try looks it up.
        throw new ProviderUnavailableError(
          `twilio: no answer (${created.error}); the send is looked up on the next try`,
          null,
          row.attempts,
        );
      }
      return this.unavailable(row, null, `twilio unreachable (${created.error})`, null);
    }
    const { httpStatus, code } = created;
    const errorCode = code === null ? String(httpStatus) : String(code);
    if (httpStatus === 401 || (code !== null && CREDENTIALS_CODES.has(code))) {
      // Not this step's fault: the try is not counted, and the step comes back.
      await this.options.pool.query(
        `UPDATE provider_messages SET status = 'unsent', attempts = attempts - 1, error_code = $2,
                updated_at = now() WHERE id = $1`,
        [row.id, errorCode],
      );
      throw new ProviderCredentialsError(
        'twilio refused the credentials (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN)',
      );
    }
    if (httpStatus === 429 || httpStatus >= 500) {
      return this.unavailable(
        row,
        errorCode,
        `twilio answered ${httpStatus}`,
        created.retryAfterMs,
      );
    }
    if (code !== null && OPTED_OUT_CODES.has(code)) {
      return this.finish(row.id, 'opted_out', errorCode, null);
    }
    if (code !== null && UNDELIVERABLE_CODES.has(code)) {
      return this.finish(row.id, 'undeliverable', errorCode, null);
    }
    return this.finish(row.id, 'failed', errorCode, 'carrier_rejected');
  }

  /**
   * The carrier answered but sent nothing (429, 5xx, unreachable): the row
   * becomes `unsent` so the step's next try sends again, or, once the tries
   * ran out, the step fails with reason provider_unavailable.
   */
  private async unavailable(
    row: MessageRow,
    errorCode: string | null,
    message: string,
    retryAfterMs: number | null,
  ): Promise<Answer> {
    if (row.attempts >= this.options.maxAttempts) {
      return this.finish(row.id, 'failed', errorCode, 'provider_unavailable');
    }
    await this.options.pool.query(
      `UPDATE provider_messages SET status = 'unsent', error_code = $2, updated_at = now()
        WHERE id = $1`,
      [row.id, errorCode],
    );
    throw new ProviderUnavailableError(message, retryAfterMs, row.attempts);
  }

  /**
   * A row left `sending`: the process stopped, or the answer was lost, between
   * the carrier's accept and our commit. Twilio's list of the day's messages
   * (calls) to the number from our sender is searched for it: the same body (a
   * call has none listed) created since the row, not already another row's.
   */
  private async reconcile(row: MessageRow): Promise<Answer> {
    const { settings } = this.options;
    const day = row.created_at.toISOString().slice(0, 10);
    const since = row.created_at.getTime() - SKEW_MS;
    const fromFilter: Record<string, string> = settings.fromNumber
      ? { From: settings.fromNumber }
      : {};
    const listed = await (row.channel === 'sms'
      ? this.rest.list('Messages', {
          To: row.to,
          ...(settings.messagingServiceSid ? {} : fromFilter),
          'DateSent>': day,
        })
      : this.rest.list('Calls', { To: row.to, ...fromFilter, 'StartTime>': day })
    ).catch((err: unknown) => {
      if (err instanceof ProviderCredentialsError) throw err;
      // Still unknown: the row stays `sending`, looked up again on the next try.
      throw new ProviderUnavailableError((err as Error).message, null, row.attempts);
    });
    const candidates = listed
      .filter((r) => r.to === row.to && Date.parse(r.date_created) >= since)
      .filter((r) => row.channel === 'call' || this.sameMessage(r, row))
      .sort((a, b) => Date.parse(a.date_created) - Date.parse(b.date_created));
    for (const candidate of candidates) {
      const adopted = await this.tryAdopt(row, candidate);
      if (adopted) return adopted;
    }
    return this.finish(row.id, 'failed', null, 'send_unconfirmed');
  }

  private sameMessage(listed: ListedResource, row: MessageRow): boolean {
    const { settings } = this.options;
    const sender = settings.messagingServiceSid
      ? listed.messaging_service_sid === settings.messagingServiceSid
      : listed.from === settings.fromNumber;
    return sender && listed.body === row.body;
  }

  /**
   * Adopts a listed message unless another row holds it (the unique carrier
   * id). What the list says became of it (delivered, failed, a call's end) is
   * a status like a callback's: held for the sid before the sid is committed
   * (provider_status_hold keeps nothing for a sid a row holds), so the commit
   * finds it and the step applies it by the callbacks' rule, once.
   */
  private async tryAdopt(row: MessageRow, listed: ListedResource): Promise<Answer | null> {
    const reported = twilioListedStatus(row.channel, listed);
    try {
      if (reported.status !== null) {
        await this.options.pool.query('SELECT provider_status_hold($1, $2, $3, $4, $5, now())', [
          'twilio',
          listed.sid,
          row.channel,
          reported.status,
          reported.errorCode,
        ]);
      }
      return await this.adopt(row.id, listed.sid);
    } catch (err) {
      if ((err as { code?: unknown }).code === '23505') return null;
      throw err;
    }
  }

  /**
   * Commits the carrier's id, the row `queued` (provider_message_adopt, one
   * statement): it also says whether intake holds statuses of that id, which
   * the step then applies (SmsResult's heldStatuses). From here on the row's
   * status changes only by the callbacks' rule, which records each change's
   * activity with it.
   */
  private async adopt(id: string, carrierId: string): Promise<Answer> {
    const { rows } = await this.options.pool.query<{ held: boolean }>(
      'SELECT provider_message_adopt($1, $2) AS held',
      [id, carrierId],
    );
    return {
      status: 'queued',
      providerMessageId: id,
      ...(rows[0]?.held ? { heldStatuses: true } : {}),
    };
  }

  /**
   * A final answer without a carrier id: recorded with the carrier's code (or,
   * when it gave none, the failure's reason), answered.
   */
  private async finish(
    id: string,
    status: string,
    errorCode: string | null,
    reason: SendFailureReason | null,
  ): Promise<Answer> {
    await this.options.pool.query(
      `UPDATE provider_messages SET status = $2, error_code = $3, updated_at = now() WHERE id = $1`,
      [id, status, errorCode ?? reason],
    );
    return {
      status,
      providerMessageId: id,
      ...(reason ? { failure: { reason, errorCode } } : {}),
    };
  }

  /**
   * The step's row: inserted `sending` with its first try counted (fresh), or
   * the one a previous try of the step left. Committed on its own (the pool),
   * so it outlives the step's transaction.
   */
  private async claimRow(
    channel: Channel,
    to: string,
    body: string | null,
    request: { idempotencyKey: string; ref: MessageRef },
  ): Promise<{ row: MessageRow; fresh: boolean }> {
    const { leadId, enrollmentId = null, step = null } = request.ref;
    const { rows } = await this.options.pool.query<MessageRow>(
      `INSERT INTO provider_messages
              (id, lead_id, enrollment_id, step, channel, "to", body, status, idempotency_key,
               provider, attempts)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 'sending', $8, 'twilio', 1)
       ON CONFLICT (idempotency_key) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        newId('providerMessage'),
        leadId,
        enrollmentId,
        step,
        channel,
        to,
        body,
        request.idempotencyKey,
      ],
    );
    if (rows[0]) return { row: rows[0], fresh: true };
    const found = await this.options.pool.query<MessageRow>(
      `SELECT ${COLUMNS_HELD} FROM provider_messages m WHERE idempotency_key = $1`,
      [request.idempotencyKey],
    );
    if (!found.rows[0]) throw new Error('provider message neither inserted nor found');
    return { row: found.rows[0], fresh: false };
  }

  /** An `unsent` row taken for another try (its count up); null if it is no longer unsent. */
  private async resend(id: string): Promise<MessageRow | null> {
    const { rows } = await this.options.pool.query<MessageRow>(
      `UPDATE provider_messages SET status = 'sending', attempts = attempts + 1, updated_at = now()
        WHERE id = $1 AND status = 'unsent' RETURNING ${COLUMNS}`,
      [id],
    );
    return rows[0] ?? null;
  }

  private async readRow(id: string): Promise<MessageRow> {
    const { rows } = await this.options.pool.query<MessageRow>(
      `SELECT ${COLUMNS_HELD} FROM provider_messages m WHERE id = $1`,
      [id],
    );
    if (!rows[0]) throw new Error(`provider message ${id} vanished`);
    return rows[0];
  }
}

/**
 * The TwiML of a call: the script said (by Twilio's text-to-speech), or a
 * silent hang-up. twilio is loaded on the first call only: every process that
 * imports this package (intake, the api) would otherwise load the whole SDK at
 * start, which only a call needs.
 */
async function twiml(script: string | null): Promise<string> {
  const { default: twilio } = await import('twilio');
  const response = new twilio.twiml.VoiceResponse();
  if (script !== null && script.trim() !== '') response.say(script);
  else response.hangup();
  return response.toString();
}

/**
 * What a row a previous try of the step finished answers. One with Twilio's
 * sid answers `queued`, what the send itself was, whatever its status is now:
 * a later status was set by a callback (or the step's held statuses) together
 * with its activity, which the step must not record again; with the held
 * statuses, when that try committed the sid but not the step (they were
 * applied in the step's transaction, and rolled back with it).
 */
function answerOf(row: MessageRow): Answer {
  if (row.carrier_id !== null) {
    return {
      status: 'queued',
      providerMessageId: row.id,
      ...(row.held ? { heldStatuses: true } : {}),
    };
  }
  const answer: Answer = { status: row.status, providerMessageId: row.id };
  if (row.status !== 'failed') return answer;
  const carrierCode =
    row.error_code !== null && /^\d+$/.test(row.error_code) ? row.error_code : null;
  return { ...answer, failure: { reason: reasonOf(row.error_code), errorCode: carrierCode } };
}

const REASONS: readonly string[] = [
  'provider_unavailable',
  'send_unconfirmed',
  'carrier_rejected',
  'no_from_number',
] satisfies SendFailureReason[];

/** A failed row's error_code: the reason itself, or the carrier's code it came from. */
function reasonOf(errorCode: string | null): SendFailureReason {
  if (errorCode !== null && REASONS.includes(errorCode)) return errorCode as SendFailureReason;
  if (errorCode === null || /^(429|5\d\d|20429|20500|20503)$/.test(errorCode)) {
    return 'provider_unavailable';
  }
  return 'carrier_rejected';
}
