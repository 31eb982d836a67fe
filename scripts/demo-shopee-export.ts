import fs from 'node:fs';
import path from 'node:path';
import { DEMO_PRODUCTS } from '../sim/syb/data';
import { demoPddUrl, demoShopeeExport } from '../sim/syb/demo-export';

/**
 * `npm run demo:shopee-export -- out.xlsx`: writes the Shopee product export that matches the
 * 顺运宝 simulator's default orders, and prints the PDD link to give each product
 * (docs/operator-guide.md, "演示数据").
 */
async function main(): Promise<void> {
  const out = process.argv[2];
  if (out === undefined || out === '' || !out.endsWith('.xlsx')) {
    console.error('usage: npm run demo:shopee-export -- <file>.xlsx');
    process.exit(2);
  }
  const file = path.resolve(out);
  fs.writeFileSync(file, await demoShopeeExport());
  console.log(`wrote ${file}`);
  console.log('link each product to its PDD goods (商品 → 商品详情 → 拼多多链接):');
  for (const p of DEMO_PRODUCTS) console.log(`  ${p.productId}  ${p.title}  →  ${demoPddUrl(p.pddGoodsId)}`);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
