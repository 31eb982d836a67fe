import type { AutoMappingPreview, MappingSaved } from '../../../domain/catalog-views';
import { http } from './client';

/*
 * 按文字一致全部映射: the preview, then the previewed list written as it was shown (409
 * AUTO_MAPPING_CHANGED when anything in it changed meanwhile: preview again). Beside
 * endpoints.ts, which is at its size limit.
 */

export const getAutoMappings = (goodsId: string): Promise<AutoMappingPreview> =>
  http.get(`/api/shopee/products/${encodeURIComponent(goodsId)}/auto-mappings`);

export const applyAutoMappings = (p: AutoMappingPreview): Promise<{ mapped: MappingSaved[] }> =>
  http.post(`/api/shopee/products/${encodeURIComponent(p.goods_id)}/auto-mappings`, {
    pdd_goods_id: p.pdd_goods_id,
    mappings: p.mappable.map((m) => ({ sku_id: m.sku_id, pdd_option_key: m.pdd.option_key })),
  });
