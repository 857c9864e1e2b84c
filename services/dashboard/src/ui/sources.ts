import type { Schema } from '../api/client';

export type SourceType = Schema<'MarketingSource'>['source_type'];

/** The source types in words, in the order the form offers them. */
export const SOURCE_TYPE_LABELS: Record<SourceType, string> = {
  vendor: 'Vendor',
  affiliate: 'Affiliate',
  web_form: 'Web form',
  campaign: 'Campaign',
};

export const STATUS_LABELS: Record<Schema<'MarketingSource'>['status'], string> = {
  active: 'Active',
  paused: 'Paused',
};

/** Every outcome of a source's figures, added up. */
export function outcomesTotal(outcomes: Record<string, number>): number {
  return Object.values(outcomes).reduce((sum, count) => sum + count, 0);
}

/** Where one source's page is (under /dashboard). */
export const sourcePath = (id: string) =>
  `/integrations/marketing-sources/${encodeURIComponent(id)}`;
export const SOURCES_PATH = '/integrations/marketing-sources';
export const PLAYBOOKS_PATH = '/playbooks';

const numbers = new Intl.NumberFormat('en-US');
export const formatCount = (count: number) => numbers.format(count);
