/**
 * The opt-out instruction a play's first SMS carries (docs/api.md, "Playbooks"):
 * carriers (CTIA's messaging principles, A2P 10DLC campaigns) require the first
 * message to a recipient to say how to stop, whatever the provider.
 */
export const OPT_OUT_INSTRUCTION = 'Reply STOP to opt out.';

/** A template already instructs when it names the keyword STOP (in capitals, as carriers match it). */
const NAMES_STOP = /\bSTOP\b/;

/**
 * The body of an SMS with the opt-out instruction appended (after a space, or
 * a newline when the body ends with one) when it is a play's first SMS and does
 * not already say STOP.
 */
export function withOptOutInstruction(body: string, first: boolean): string {
  if (!first || NAMES_STOP.test(body)) return body;
  if (body.trim() === '') return OPT_OUT_INSTRUCTION;
  return /\s$/.test(body) ? `${body}${OPT_OUT_INSTRUCTION}` : `${body} ${OPT_OUT_INSTRUCTION}`;
}
