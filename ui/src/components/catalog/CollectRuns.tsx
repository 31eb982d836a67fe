import { Show, type JSX } from 'solid-js';
import type { CollectRunView } from '../../../../domain/catalog-views';
import { collectRunStatusZh } from '../../../../domain/collect-labels';
import { formatTime } from '../../lib/time';
import DeviceName from '../devices/DeviceName';
import { ListTable } from '../ListParts';

/** 最近采集: a PDD goods' last collects, how each ended and on which phone. */
export default function CollectRuns(props: { runs: readonly CollectRunView[] }): JSX.Element {
  return (
    <div class="card" style={{ 'margin-top': '12px' }}>
      <h3>最近采集</h3>
      <ListTable
        testid="pdd-goods-collects"
        columns={['开始时间', '结果', '设备', '结束时间']}
        items={props.runs}
        loading={false}
        empty="还没有采集过"
      >
        {(run) => (
          <tr data-testid="pdd-goods-collect-run" data-status={run.status}>
            <td>{formatTime(run.created_at)}</td>
            <td>
              {collectRunStatusZh(run.status) ?? '未知状态'}
              <Show when={run.error_message}>
                <div class="form-error">{run.error_message}</div>
              </Show>
            </td>
            <td>
              <DeviceName deviceId={run.device_id} />
            </td>
            <td>{formatTime(run.finished_at)}</td>
          </tr>
        )}
      </ListTable>
    </div>
  );
}
