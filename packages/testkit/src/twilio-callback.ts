/**
 * Twilio's callbacks as Twilio sends them: an `application/x-www-form-urlencoded`
 * POST signed with X-Twilio-Signature (twilio's getExpectedTwilioSignature:
 * HMAC-SHA1 keyed by the auth token over the URL and the sorted fields). For
 * intake's route tests, the fake Twilio REST API and the end-to-end tests.
 */
import { getExpectedTwilioSignature } from 'twilio/lib/webhooks/webhooks.js';

export type TwilioCallbackParams = Record<string, string>;

/** The X-Twilio-Signature Twilio sends for `params` posted to `url`. */
export function twilioSignature(
  authToken: string,
  url: string,
  params: TwilioCallbackParams,
): string {
  return getExpectedTwilioSignature(authToken, url, params);
}

export interface TwilioCallback {
  /** Where the request goes. */
  url: string;
  /** TWILIO_AUTH_TOKEN of the account that signs. */
  authToken: string;
  params: TwilioCallbackParams;
  /**
   * The URL Twilio signs, when the request reaches the service at another
   * address than Twilio called (a proxy in front): PUBLIC_BASE_URL + path and
   * query. Default `url`.
   */
  signedUrl?: string;
  /** Another X-Twilio-Signature than the right one, or null to send none (tests). */
  signature?: string | null;
}

export interface TwilioCallbackAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** Signs and POSTs one callback; resolves with the answer, whatever its status. */
export async function postTwilioCallback(callback: TwilioCallback): Promise<TwilioCallbackAnswer> {
  const signature =
    callback.signature === undefined
      ? twilioSignature(callback.authToken, callback.signedUrl ?? callback.url, callback.params)
      : callback.signature;
  const response = await fetch(callback.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded; charset=utf-8',
      ...(signature === null ? {} : { 'x-twilio-signature': signature }),
    },
    body: new URLSearchParams(callback.params).toString(),
  });
  return {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    text: await response.text(),
  };
}
