import type { TwilioSettings } from '@leadhook/config';
import got, { RequestError } from 'got';
import { ProviderCredentialsError } from '../provider.js';

/**
 * The two Twilio REST calls leadhook makes, creating and listing Messages and
 * Calls (API version 2010-04-01), with got like every outbound request of
 * leadhook. Nothing here throws got's errors: they carry the request's URL
 * and options (phone numbers, the auth token), which must never reach a log.
 */

/** What a creating POST came to. */
export type CreateAnswer =
  /** 201: Twilio holds the message or call; `sid` is its SM…/CA… id. */
  | { kind: 'created'; sid: string }
  /** An HTTP answer other than 201: nothing was created. */
  | { kind: 'refused'; httpStatus: number; code: number | null; retryAfterMs: number | null }
  /**
   * No answer. `reached` false: the request never left (connection refused, no
   * such host), so nothing was sent; true: it may have been (a timeout, a cut
   * connection).
   */
  | { kind: 'no_answer'; reached: boolean; error: string };

/** A message or call as Twilio lists it (the fields reconciliation reads). */
export interface ListedResource {
  sid: string;
  to: string;
  from: string | null;
  body?: string;
  messaging_service_sid?: string | null;
  status: string;
  /** A message's: Twilio's code of why it failed. */
  error_code?: number | null;
  /** A call's: what machine detection decided (human, machine_end_beep, ...). */
  answered_by?: string | null;
  date_created: string;
}

export type TwilioResource = 'Messages' | 'Calls';

/** Pages read at most when listing (PageSize 100 each): a lead's messages of a day fit in one. */
const MAX_PAGES = 5;

/** Errors whose request never reached a server: nothing was sent. */
const NOT_REACHED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);

export class TwilioRest {
  constructor(
    private readonly settings: TwilioSettings,
    private readonly timeoutMs: number,
  ) {}

  private url(resource: TwilioResource): string {
    return `${this.settings.apiBase}/2010-04-01/Accounts/${this.settings.accountSid}/${resource}.json`;
  }

  private get auth() {
    return { username: this.settings.accountSid, password: this.settings.authToken };
  }

  /** POST Messages.json or Calls.json with `form`. */
  async create(resource: TwilioResource, form: Record<string, string>): Promise<CreateAnswer> {
    let response: { statusCode: number; body: string; headers: Record<string, unknown> };
    try {
      response = await got.post(this.url(resource), {
        ...this.auth,
        form,
        throwHttpErrors: false,
        followRedirect: false,
        retry: { limit: 0 },
        timeout: { request: this.timeoutMs },
      });
    } catch (err) {
      const code = err instanceof RequestError ? err.code : 'unknown';
      return { kind: 'no_answer', reached: !NOT_REACHED.has(code), error: code };
    }
    const document = parseJson(response.body);
    if (response.statusCode === 201 && typeof document?.sid === 'string') {
      return { kind: 'created', sid: document.sid };
    }
    return {
      kind: 'refused',
      httpStatus: response.statusCode,
      code: typeof document?.code === 'number' ? document.code : null,
      retryAfterMs: retryAfterMs(response.headers['retry-after']),
    };
  }

  /**
   * GET Messages.json or Calls.json filtered by `query` (To, From, the day),
   * newest first as Twilio lists them, following next_page_uri a few pages.
   * Throws (with a message naming no number) when Twilio does not answer 200.
   */
  async list(resource: TwilioResource, query: Record<string, string>): Promise<ListedResource[]> {
    const key = resource === 'Messages' ? 'messages' : 'calls';
    const found: ListedResource[] = [];
    let url: string | null = `${this.url(resource)}?${new URLSearchParams({
      ...query,
      PageSize: '100',
    })}`;
    for (let page = 0; url !== null && page < MAX_PAGES; page++) {
      let response: { statusCode: number; body: string };
      try {
        response = await got.get(url, {
          ...this.auth,
          throwHttpErrors: false,
          followRedirect: false,
          retry: { limit: 0 },
          timeout: { request: this.timeoutMs },
        });
      } catch (err) {
        throw new Error(
          `twilio: listing ${resource} failed (${err instanceof RequestError ? err.code : 'unknown'})`,
        );
      }
      const document = parseJson(response.body);
      if (response.statusCode === 401) {
        throw new ProviderCredentialsError(
          'twilio refused the credentials (TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN)',
        );
      }
      if (response.statusCode !== 200 || !Array.isArray(document?.[key])) {
        throw new Error(`twilio: listing ${resource} answered ${response.statusCode}`);
      }
      found.push(...(document[key] as ListedResource[]));
      const next = document.next_page_uri;
      url = typeof next === 'string' && next !== '' ? `${this.settings.apiBase}${next}` : null;
    }
    return found;
  }
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Retry-After in seconds (Twilio does not send the date form). */
function retryAfterMs(header: unknown): number | null {
  const seconds = typeof header === 'string' ? Number(header) : Number.NaN;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}
