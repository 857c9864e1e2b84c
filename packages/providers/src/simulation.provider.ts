import { newId, type PrismaClient } from '@leadhook/db';
import {
  type CallResult,
  type CallStatus,
  isCallStatus,
  isSmsStatus,
  type MessageRef,
  type MessagingProvider,
  type PlaceCallRequest,
  type SendSmsRequest,
  type SmsResult,
  type SmsStatus,
} from './provider.js';

export interface SimulationProviderOptions {
  prisma: PrismaClient;
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
  readonly name = 'simulation';

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
    const { prisma } = this.options;
    const { leadId, enrollmentId = null, step = null } = request.ref;
    const [inserted] = await prisma.$queryRaw<StoredMessage[]>`
      INSERT INTO provider_messages
             (id, lead_id, enrollment_id, step, channel, "to", body, status, idempotency_key)
      VALUES (${newId('providerMessage')}, ${leadId}, ${enrollmentId}, ${step}, ${channel},
              ${to}, ${body}, ${status}, ${request.idempotencyKey})
      ON CONFLICT (idempotency_key) DO NOTHING
      RETURNING id, status`;
    if (inserted) return inserted;
    return prisma.providerMessage.findUniqueOrThrow({
      where: { idempotencyKey: request.idempotencyKey },
      select: { id: true, status: true },
    });
  }
}
