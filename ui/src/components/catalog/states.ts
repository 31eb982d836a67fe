import { PRODUCT_STATES, type ProductState } from '../../../../domain/catalog';

export { PRODUCT_STATES, type ProductState };

/** The operator's word for each of the five product states. */
export const STATE_LABELS: Readonly<Record<ProductState, string>> = {
  unlinked: '未填链接',
  pending: '待采集',
  collecting: '采集中',
  collected: '已采集',
  failed: '采集失败',
};
