/**
 * The shape of area-codes.generated.ts, kept here so that the generator
 * (scripts/generate-area-codes.mjs) writes only the data.
 */
export interface GeneratedAreaCode {
  /** ISO country: US, CA, or a US territory. */
  readonly country: string;
  /** USPS codes of the state(s) or province(s) served. */
  readonly states: readonly string[];
  /** IANA zones. */
  readonly zones: readonly string[];
}

export interface GeneratedAreaCodeTable {
  readonly source: string;
  readonly checked: string;
  readonly areaCodes: Readonly<Record<string, GeneratedAreaCode>>;
}
