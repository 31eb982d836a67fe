import { For, type JSX } from 'solid-js';
import { gateStandings, type GateStanding } from '../../../../domain/purchase/gates';
import type { GateView } from '../../../../domain/purchase/views';
import { formatYuan } from '../../lib/money';

interface Props {
  gates: GateView;
  quantity: number;
  maxTotalPriceCent: number;
}

interface GateLine {
  key: string;
  label: string;
  reading: string;
  rule: string;
  verdict: GateStanding;
}

const VERDICT_ZH: Readonly<Record<GateStanding, string>> = { pass: '通过', fail: '未通过', pending: '未读取' };

/** The phone's readings against the authorised 最高总价, judged by domain/purchase/gates.ts to explain them. */
function lines(p: Props): GateLine[] {
  const g = p.gates;
  const maxTotal = formatYuan(p.maxTotalPriceCent);
  const g1Total = g.gate1_unit_price_cent === null ? null : g.gate1_unit_price_cent * p.quantity;
  const standing = gateStandings(
    {
      gate1UnitPriceCent: g.gate1_unit_price_cent,
      gate2PanelTotalCent: g.gate2_panel_total_cent,
      gate3SubmitAmountCent: g.gate3_submit_amount_cent,
      quantityRead: g.quantity_read,
    },
    p.quantity,
    p.maxTotalPriceCent,
  );
  return [
    {
      key: 'gate1',
      label: '闸门一 单价',
      reading:
        g.gate1_unit_price_cent === null
          ? '—'
          : `${formatYuan(g.gate1_unit_price_cent)} × ${p.quantity} = ${formatYuan(g1Total)}`,
      rule: `单价 × 数量 ≤ ${maxTotal}`,
      verdict: standing.gate1,
    },
    {
      key: 'gate2',
      label: '闸门二 面板总额',
      reading: formatYuan(g.gate2_panel_total_cent),
      rule: `面板总额 ≤ ${maxTotal}`,
      verdict: standing.gate2,
    },
    {
      key: 'gate3',
      label: '闸门三 提交金额',
      reading: formatYuan(g.gate3_submit_amount_cent),
      rule: `等于闸门二且 ≤ ${maxTotal}`,
      verdict: standing.gate3,
    },
    {
      key: 'quantity',
      label: '数量读回',
      reading: g.quantity_read === null ? '—' : String(g.quantity_read),
      rule: `等于 ${p.quantity}`,
      verdict: standing.quantity,
    },
  ];
}

export default function GatesPanel(props: Props): JSX.Element {
  return (
    <div class="card tk-section" data-testid="gates">
      <h2 class="tk-section-title">
        价格闸门 <span class="muted">最高总价 {formatYuan(props.maxTotalPriceCent)}</span>
      </h2>
      <table class="tk-table tk-gates">
        <tbody>
          <For each={lines(props)}>
            {(l) => (
              <tr data-testid={`gate-${l.key}`} data-verdict={l.verdict}>
                <th>{l.label}</th>
                <td class="tk-num">{l.reading}</td>
                <td class="muted">{l.rule}</td>
                <td>
                  <span class={`tk-verdict tk-verdict-${l.verdict}`}>{VERDICT_ZH[l.verdict]}</span>
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </div>
  );
}
