import type { JSX } from 'solid-js';
import type { OptionWarning, PddSkuRow } from '../../../../domain/catalog-views';
import { formatYuan } from '../../lib/money';
import OptionWarnings from './OptionWarnings';
import PriceSource from './PriceSource';

/**
 * A collected option's 价格 and 库存 cells, as every table of collected options shows them: the
 * price with where it came from, the stock with the option's warnings. `testid` names the cells
 * (`<testid>-price`, `<testid>-stock`).
 */
export default function PriceStockCells(props: {
  row: PddSkuRow;
  testid?: string;
  /** what an unread price shows as ('—' by default) */
  unknownPrice?: string;
  /** a warning the row already says otherwise (an unknown price shown as 未知) */
  omit?: OptionWarning;
}): JSX.Element {
  const id = (cell: string): string | undefined => (props.testid ? `${props.testid}-${cell}` : undefined);
  return (
    <>
      <td data-testid={id('price')}>
        {props.row.price_cent === null && props.unknownPrice ? props.unknownPrice : formatYuan(props.row.price_cent)}
        <PriceSource row={props.row} />
      </td>
      <td data-testid={id('stock')}>
        {props.row.available ? '有货' : ''}
        <OptionWarnings warnings={props.row.warnings.filter((w) => w !== props.omit)} />
      </td>
    </>
  );
}
