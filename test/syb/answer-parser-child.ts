import { AnswerParser, AnswerTooCostly } from '../../admin/syb/answer-parser';

/**
 * Run by test/syb/costly-answer.test.ts in a process of its own: hostile 顺运宝 answers just under
 * the 32 MB cap, fed to the real answer parser chunk by chunk as the client feeds it. Before the
 * answer budgets, the first one made V8 abort the whole process (exit 134) — in a child, the test
 * runner survives to see that. Prints one JSON line per answer, then `done`.
 */
const MB31 = 31 * 1024 * 1024;
const head = '{"code":0,"msg":"success","data":{"id":"X","code":"TW-X","created":"2026-12-01 08:00:00","details":';

function line(i: number): string {
  return JSON.stringify({
    id: `L-${i}`,
    productId: '33300000002',
    title: `標題${i}`,
    spec: '白色,L',
    quantity: 1,
    price: '10',
    imageUrl: null,
  });
}

const answers: Record<string, () => string> = {
  // ten million objects: each a heap object, together more than the thread's 512 MB
  'empty objects': () => `${head}[${'{},'.repeat(Math.floor(MB31 / 3))}{}]}}`,
  // sixteen million levels of arrays
  nesting: () => `${head}${'['.repeat(MB31 / 2)}${']'.repeat(MB31 / 2)}}}`,
  // sixteen million numbers
  values: () => `${head}[${'0,'.repeat(MB31 / 2)}0]}}`,
  // 600,000 objects, each with a key of its own (a hidden class each)
  'own keys': () => `${head}[${Array.from({ length: 600_000 }, (_, i) => `{"k${i}":0}`).join(',')}]}}`,
  // what a real, if huge, shipment looks like: 100,000 lines still parse
  '100,000 lines': () => `${head}[${Array.from({ length: 100_000 }, (_, i) => line(i)).join(',')}]}}`,
};

async function parse(parser: AnswerParser, text: string): Promise<Record<string, unknown>> {
  const bytes = Buffer.from(text);
  const started = Date.now();
  try {
    const answer = await parser.parseStreamed('detail', async (send) => {
      for (let i = 0; i < bytes.length; i += 65_536) send(bytes.subarray(i, i + 65_536));
    });
    return { ok: true, lineCount: answer.data?.lineCount, ms: Date.now() - started };
  } catch (err) {
    const e = err as Error;
    return { ok: false, costly: err instanceof AnswerTooCostly, message: e.message, ms: Date.now() - started };
  }
}

async function main(): Promise<void> {
  // the thread is unref'd: something must keep this process up while it works
  const alive = setInterval(() => undefined, 1000);
  const parser = new AnswerParser();
  for (const [name, build] of Object.entries(answers)) {
    const text = build();
    console.log(JSON.stringify({ name, bytes: Buffer.byteLength(text), ...(await parse(parser, text)) }));
  }
  // a thread that runs out of memory: a heap of 16 MB cannot hold the 100,000 lines
  const small = new AnswerParser(16);
  console.log(JSON.stringify({ name: 'out of memory', ...(await parse(small, answers['100,000 lines']!())) }));
  // the same parser again: a fresh thread parses the next answer
  console.log(JSON.stringify({ name: 'after out of memory', ...(await parse(small, `${head}[${line(1)}]}}`)) }));
  console.log(JSON.stringify({ name: 'after refusals', ...(await parse(parser, `${head}[${line(1)}]}}`)) }));
  await small.close();
  await parser.close();
  clearInterval(alive);
  console.log('done');
}

void main();
