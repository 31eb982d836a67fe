/**
 * A strict reader of the Prometheus text exposition format (version 0.0.4), so a test fails on
 * any line a Prometheus server would reject, and can then look samples up by name and labels.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  types: Map<string, string>;
  samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = '[a-zA-Z_][a-zA-Z0-9_]*';
// Prometheus reads values with Go's ParseFloat, which takes Inf and NaN in any case (prom-client
// writes an empty event-loop lag window as `Nan`).
const VALUE = '(?:[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?|[+-]?[iI][nN][fF]|[nN][aA][nN])';
const SAMPLE_LINE = new RegExp(
  `^(${NAME})(?:\\{((?:${LABEL}="(?:[^"\\\\\\n]|\\\\[\\\\"n])*",?)*)\\})? (${VALUE})(?: -?\\d+)?$`,
);
const LABEL_PAIR = new RegExp(`(${LABEL})="((?:[^"\\\\\\n]|\\\\[\\\\"n])*)"`, 'g');
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES = ['_bucket', '_sum', '_count', '_total', '_created', ''];

export function parsePrometheusText(text: string): Scrape {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  lines.forEach((line, i) => {
    const where = `line ${i + 1}: ${JSON.stringify(line)}`;
    if (line.startsWith('# HELP ')) {
      if (!new RegExp(`^# HELP ${NAME} .*$`).test(line)) throw new Error(`bad HELP, ${where}`);
      return;
    }
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      if (!name || !new RegExp(`^${NAME}$`).test(name) || !type || !TYPES.has(type))
        throw new Error(`bad TYPE, ${where}`);
      if (types.has(name)) throw new Error(`TYPE repeated, ${where}`);
      types.set(name, type);
      return;
    }
    if (line.startsWith('#') || line.trim() === '') return;
    const m = SAMPLE_LINE.exec(line);
    if (!m) throw new Error(`not a sample, ${where}`);
    const name = m[1]!;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL_PAIR)) {
      if (k! in labels) throw new Error(`label ${k} repeated, ${where}`);
      labels[k!] = v!.replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
    }
    const family = SUFFIXES.map((s) => (s && name.endsWith(s) ? name.slice(0, -s.length) : name)).find((f) =>
      types.has(f),
    );
    if (!family) throw new Error(`sample without a TYPE, ${where}`);
    const raw = m[3]!;
    const lower = raw.toLowerCase();
    const value = lower.endsWith('inf')
      ? lower.startsWith('-')
        ? -Infinity
        : Infinity
      : lower === 'nan'
        ? NaN
        : Number(raw);
    samples.push({ name, labels, value });
  });
  return { types, samples };
}

/** The value of the one sample with this name whose labels include `labels`; 0 when there is none. */
export function valueOf(scrape: Scrape, name: string, labels: Record<string, string> = {}): number {
  const found = scrape.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length > 1) throw new Error(`${name} ${JSON.stringify(labels)} matches ${found.length} samples`);
  return found[0]?.value ?? 0;
}
