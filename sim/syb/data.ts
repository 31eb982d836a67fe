import { z } from 'zod';

/**
 * The simulator's data set: shipments (货运单) as the control API takes them (the control API,
 * summarised in docs/syb-protocol.md). Everything lives in memory only.
 */
const localTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'created: "YYYY-MM-DD HH:MM:SS" (Asia/Taipei)');

const shipmentDetailSchema = z
  .object({
    id: z.string().min(1).max(100),
    productId: z.string().min(1).max(40),
    title: z.string().max(500),
    spec: z.string().max(500).nullable(),
    quantity: z.number().int().positive(),
    price: z.string().regex(/^\d{1,12}(\.\d{1,3})?$/, 'price: a decimal string in 元, up to three decimals'),
    imageUrl: z.string().max(2000).nullable().optional(),
  })
  .strict();

const shipmentSchema = z
  .object({
    id: z.string().min(1).max(100),
    code: z.string().min(1).max(100),
    orderCode: z.string().max(100).nullable().optional(),
    created: localTime,
    receiver: z.object({ name: z.string(), phone: z.string(), address: z.string() }).strict(),
    details: z.array(shipmentDetailSchema).min(1),
  })
  .strict();

export const shipmentsBodySchema = z.object({ shipments: z.array(shipmentSchema) }).strict();

export type Shipment = z.infer<typeof shipmentSchema>;

/** Taipei has no daylight saving time: local = UTC + 8 h, always. */
const TAIPEI_OFFSET_MS = 8 * 3600_000;

export function taipeiLocal(date: Date): string {
  return new Date(date.getTime() + TAIPEI_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * The Shopee goods of the demo orders, the phone simulator's goods each one is bought as
 * (sim/phone/catalog/default-catalog.ts), and the specs the demo Shopee export lists for it
 * (`demo-export.ts`) — every spec a demo order line uses among them, written the same way, so
 * a sync after the import matches each line to its SKU by itself. The SYB service knows
 * nothing of PDD: the pairing is for whoever seeds a demo (link the Shopee product to this
 * PDD goods).
 */
export const DEMO_PRODUCTS = [
  {
    productId: '26813450001',
    title: '【現貨】春秋款西裝外套男士休閒單西',
    pddGoodsId: '937122477375',
    specs: ['黑色,S', '黑色,M', '黑色,L', '白色,S', '白色,M', '白色,L'],
  },
  {
    productId: '26813450002',
    title: '純棉短袖T恤女寬鬆百搭',
    pddGoodsId: '600000000101',
    specs: ['紅,S', '紅,M', '粉紅,S', '粉紅,M'],
  },
  {
    productId: '26813450003',
    title: '不鏽鋼保溫杯500ml',
    pddGoodsId: '600000000106',
    specs: ['銀色,500ml', '黑色,500ml', '白色,500ml'],
  },
  {
    productId: '26813450004',
    title: '運動跑步鞋男透氣',
    pddGoodsId: '600000000108',
    specs: ['黑白,40', '黑白,41', '黑白,42', '黑白,43'],
  },
] as const;

const image = (productId: string) => `https://cf.shopee.tw/file/demo-${productId}`;

/**
 * The default data set: three shipments created today and yesterday (Taipei), so a first sync
 * of a fresh `npm start` finds them. Specs are written as the Shopee export writes them
 * (`顏色,尺碼`), values as the phone simulator's catalog offers them.
 */
export function defaultShipments(now: Date = new Date()): Shipment[] {
  const day = (offsetDays: number, time: string) =>
    `${taipeiLocal(new Date(now.getTime() + offsetDays * 86400_000)).slice(0, 10)} ${time}`;
  const [coat, tee, cup, shoes] = DEMO_PRODUCTS;
  const stamp = taipeiLocal(now).slice(2, 10).replaceAll('-', '');
  return [
    {
      id: `SH-${stamp}-0001`,
      code: `TW${stamp}0001`,
      orderCode: `${stamp}DEMO0001`,
      created: day(-1, '09:15:00'),
      receiver: { name: '王小明', phone: '0912345678', address: '台北市信義區松仁路100號5樓' },
      details: [
        {
          id: `D-${stamp}-0001-1`,
          productId: coat.productId,
          title: coat.title,
          spec: '黑色,M',
          quantity: 1,
          price: '1280.50',
          imageUrl: image(coat.productId),
        },
        {
          id: `D-${stamp}-0001-2`,
          productId: tee.productId,
          title: tee.title,
          spec: '紅,S',
          quantity: 2,
          price: '299',
          imageUrl: image(tee.productId),
        },
      ],
    },
    {
      id: `SH-${stamp}-0002`,
      code: `TW${stamp}0002`,
      orderCode: `${stamp}DEMO0002`,
      created: day(-1, '20:40:12'),
      receiver: { name: '陳美玲', phone: '0922333444', address: '新北市板橋區文化路一段188號' },
      details: [
        {
          id: `D-${stamp}-0002-1`,
          productId: cup.productId,
          title: cup.title,
          spec: '黑色,500ml',
          quantity: 1,
          price: '459.005',
          imageUrl: image(cup.productId),
        },
      ],
    },
    {
      id: `SH-${stamp}-0003`,
      code: `TW${stamp}0003`,
      orderCode: `${stamp}DEMO0003`,
      created: day(0, '00:05:00'),
      receiver: { name: '林志豪', phone: '0933555666', address: '台中市西屯區台灣大道三段99號' },
      details: [
        {
          id: `D-${stamp}-0003-1`,
          productId: shoes.productId,
          title: shoes.title,
          spec: '黑白,42',
          quantity: 1,
          price: '1890',
          imageUrl: image(shoes.productId),
        },
        {
          id: `D-${stamp}-0003-2`,
          productId: coat.productId,
          title: coat.title,
          spec: '白色,S',
          quantity: 1,
          price: '1350',
          imageUrl: image(coat.productId),
        },
      ],
    },
  ];
}
