import type { MoneyLine, Overview as MoneyOverview, OverviewDay, OverviewPhone } from '../../../domain/money-views';
import { http, query } from './client';

// 概览: what was bought, paid and stopped per Taipei day, and what waits on each phone (admin/money/)

export type { MoneyOverview, OverviewDay, OverviewPhone };

/** `from`/`to` are Taipei days, both included; 400 names the field when a date is bad or the range too long. */
export const getMoneyOverview = (from: string, to: string): Promise<MoneyOverview> =>
  http.get(`/api/money/overview${query({ from, to })}`);

export type MoneyLineSort = 'shipped' | 'margin' | '-margin';
/** 毛利 on 订单: the lines of a range with their money (docs/api.md §16). */
export const listMoneyLines = (p: {
  from: string;
  to: string;
  sort: MoneyLineSort;
  loss: boolean;
  limit: number;
  cursor: string | null;
}): Promise<{ items: MoneyLine[]; next_cursor: string | null; rate_set: boolean }> =>
  http.get(
    `/api/money/lines${query({ from: p.from, to: p.to, sort: p.sort, loss: p.loss ? '1' : undefined, limit: p.limit, cursor: p.cursor ?? undefined })}`,
  );
/** The export for the books: a plain link, downloaded with the operator's session. */
export const moneyExportUrl = (format: 'xlsx' | 'csv', r: { from: string; to: string }): string =>
  `/api/money/export.${format}${query({ from: r.from, to: r.to })}`;
