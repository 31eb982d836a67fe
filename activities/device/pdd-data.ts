import type { SkusJson } from '../../domain/collect';
import type { PddData } from '../../domain/contracts/device-activities';

/** The same collect as the phone host's record, dimension values included. */
export function toPddData(
  s: SkusJson,
  src: { url: string; deviceId: string; deviceAddress: string; pkg: string; appVersion: string },
): PddData {
  return {
    schema_version: 1,
    goods: { goods_id: s.goods_id, url: src.url, title: s.title },
    shop: { name: s.shop_name },
    dimensions: s.dimensions.map((d) => {
      const values: { text: string; available: boolean }[] = [];
      for (const sku of s.skus) {
        const text = sku.options[d.key];
        if (text === undefined) continue;
        const seen = values.find((v) => v.text === text);
        if (seen) seen.available ||= sku.available;
        else values.push({ text, available: sku.available });
      }
      return { key: d.key, name: d.name, values };
    }),
    skus: s.skus,
    purchase: null,
    captured_at: s.captured_at,
    source: {
      device_id: src.deviceId,
      device_address: src.deviceAddress,
      pdd_package: src.pkg,
      app_version: src.appVersion,
    },
    artifacts: [],
  };
}
