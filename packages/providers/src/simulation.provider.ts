import { newId, type Pool, type PrismaClient } from '@leadhook/db';
import {
  type CallResult,
  type CallStatus,
  isCallStatus,
  isSmsStatus,
  type MessageRef,
  type MessagingProvider,
  type PlaceCallRequest,
  type ProviderName,
  type SendSmsRequest,
  type SmsResult,
  type SmsStatus,
} from './provider.js';

export interface SimulationProviderOptions {
  prisma: PrismaClient;
  /**
   * When given, the records are written through this plain pg pool instead of
   * Prisma (the playbook worker's hot path: one statement per send).
   */
  pool?: Pool;
  /** What every SMS becomes, or a function of the request (tests). Default delivered. */
  sms?: SmsStatus | ((request: SendSmsRequest) => SmsStatus);
  /** What every call becomes, or a function of the request. Default voicemail. */
  call?: CallStatus | ((request: PlaceCallRequest) => CallStatus);
}

interface StoredMessage {
  id: string;
  status: string;
}

/**
 * The default provider: sends nothing, records every SMS and call in
 * provider_messages with the configured outcome, so the whole flow runs without a
 * carrier account. The idempotency key is unique in the table: the same request
 * twice answers the first record's id and status, as a carrier's idempotency key
 * would.
 */
export class SimulationProvider implements MessagingProvider {
  readonly name: ProviderName = 'simulation';

  constructor(private readonly options: SimulationProviderOptions) {}

  async sendSms(request: SendSmsRequest): Promise<SmsResult> {
    const wanted = this.options.sms ?? 'delivered';
    const status = typeof wanted === 'function' ? wanted(request) : wanted;
    const stored = await this.record('sms', request.to, request.body, status, request);
    if (!isSmsStatus(stored.status)) throw new Error(`provider message ${stored.id} is not an SMS`);
    return { status: stored.status, providerMessageId: stored.id };
  }

  async placeCall(request: PlaceCallRequest): Promise<CallResult> {
    const wanted = this.options.call ?? 'voicemail';
    const status = typeof wanted === 'function' ? wanted(request) : wanted;
    const stored = await this.record('call', request.to, request.script ?? null, status, request);
    if (!isCallStatus(stored.status))
      throw new Error(`provider message ${stored.id} is not a call`);
    return { status: stored.status, providerMessageId: stored.id };
  }

  private async record(
    channel: 'sms' | 'call',
    to: string,
    body: string | null,
    status: string,
    request: { idempotencyKey: string; ref: MessageRef },
  ): Promise<StoredMessage> {
    const { prisma, pool } = this.options;
    const { leadId, enrollmentId = null, step = null } = request.ref;
    const values = [
      newId('providerMessage'),
      leadId,
      enrollmentId,
      step,
      channel,
      to,
      body,
      status,
      request.idempotencyKey,
    ];
    // The same idempotency key again answers the first record: the insert returns
    // nothing then, and the lookup finds the committed row. (A rival insert still
    // uncommitted when this statement began is outside its snapshot: looked up
    // again below.)
    const text = `
      WITH inserted AS (
        INSERT INTO provider_messages
               (id, lead_id, enrollment_id, step, channel, "to", body, status, idempotency_key)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
        ON CONFLICT (idempotency_key) DO NOTHING
        RETURNING id, status)
      SELECT id, status FROM inserted
      UNION ALL
      SELECT id, status FROM provider_messages
       WHERE idempotency_key = $9 AND NOT EXISTS (SELECT 1 FROM inserted)`;
    const query = async (sql: string, params: unknown[]) =>
      pool
        ? (await pool.query<StoredMessage>(sql, params)).rows
        : await prisma.$queryRawUnsafe<StoredMessage[]>(sql, ...params);
    const [stored] = await query(text, values);
    if (stored) return stored;
    const [again] = await query(
      'SELECT id, status FROM provider_messages WHERE idempotency_key = $1',
      [request.idempotencyKey],
    );
    if (!again) throw new Error('provider message neither inserted nor found');
    return again;
  }
}
