import { createMemo, createResource, type JSX } from 'solid-js';
import type { Page } from '../../../domain/page';
import { query } from '../api/client';
import type { AuditListItem, AuditQuery } from '../../../domain/audit-views';
import { listAudit } from '../api/audit';
import { listDevices } from '../api/endpoints';
import AuditFilters from '../components/audit/AuditFilters';
import AuditTable from '../components/audit/AuditTable';
import '../components/audit/audit.css';
import '../components/catalog/catalog.css';
import ErrorMessage from '../components/ErrorMessage';
import { LoadMore } from '../components/ListParts';
import { createPagedList } from '../lib/paged-list';
import { navigate } from '../router';
import { routeQuery } from '../route-table';

const PAGE_SIZE = 50;

/** Filters live in the hash, so a link (from a task, say) or a reload lands on the same view. */
function routeFilters(): AuditQuery {
  const p = routeQuery();
  return { action: p.get('action') ?? '', device_id: p.get('device_id') ?? '', task_id: p.get('task_id') ?? '' };
}

// the list shows no 共 N 条: the API counts nothing (docs/api.md), so the count stays 0
const fetchRows = async (f: AuditQuery, limit: number, cursor: string | null): Promise<Page<AuditListItem>> => ({
  ...(await listAudit(f, limit, cursor)),
  total: 0,
});

/** 审计日志: who did what, to which task or phone, when; newest first. */
export default function AuditPage(): JSX.Element {
  const filters = (): AuditQuery => routeFilters();
  const list = createPagedList({ filters, fetch: fetchRows, pageSize: PAGE_SIZE });
  // the phones' names for 手机 and for rows about a phone; the log still reads without them
  const [phones] = createResource(() => listDevices().catch(() => []));
  const phoneNames = createMemo(() => new Map((phones() ?? []).map((p) => [p.device_id, p.display_name])));

  const setFilter = (next: Partial<AuditQuery>): void => {
    const f = { ...filters(), ...next };
    navigate(`/audit${query({ action: f.action, device_id: f.device_id, task_id: f.task_id })}`);
  };

  return (
    <section class="page" data-testid="page-audit">
      <h1 class="page-title">审计日志</h1>
      <p class="page-summary">谁在什么时候做了什么：操作员的操作、手机和系统的动作，按时间倒序。记录只增不改。</p>
      <AuditFilters value={filters()} phones={phones() ?? []} onChange={setFilter} />
      <ErrorMessage testid="audit-error" message={list.loadError()} />
      <AuditTable items={list.items()} loading={list.loading()} phoneNames={phoneNames()} />
      <LoadMore
        testid="audit-more"
        cursor={list.cursor()}
        loading={list.loading()}
        hint={false}
        onMore={() => void list.more()}
      />
    </section>
  );
}
