import type { Phone } from '../phone';
import type { CmdOutput } from './output';

/** The keyboard a phone ships with: the input method its settings name until `ime set` changes it. */
export const LATIN_IME = 'com.android.inputmethod.latin/.LatinIME';

/**
 * Settings a phone has before anyone changes them. Android ships the three animation scales as
 * `1.0` and its own keyboard as the one input method, enabled and chosen; any other name reads
 * `null` until it is put, as on a phone where nobody set it.
 */
const DEFAULTS: Record<string, Record<string, string>> = {
  global: {
    window_animation_scale: '1.0',
    transition_animation_scale: '1.0',
    animator_duration_scale: '1.0',
  },
  secure: {
    default_input_method: LATIN_IME,
    enabled_input_methods: LATIN_IME,
  },
  system: {},
};

const USAGE =
  'usage:  settings [--user <USER_ID> | current] get namespace key\n' +
  '        settings [--user <USER_ID> | current] put namespace key value\n' +
  '        settings [--user <USER_ID> | current] delete namespace key\n' +
  '        settings [--user <USER_ID> | current] list namespace\n' +
  "\n'namespace' is one of {system, secure, global}, case-insensitive\n";

const ok = (s: string): CmdOutput => ({ stdout: Buffer.from(s), stderr: Buffer.alloc(0), code: 0 });
const bad = (why: string): CmdOutput => ({
  stdout: Buffer.alloc(0),
  stderr: Buffer.from(`${why}\n${USAGE}`),
  code: 255,
});

/** The phone's value of `namespace/name`: what it was put to, else Android's default, else null. */
export function readSetting(phone: Phone, ns: string, name: string): string | null {
  const key = `${ns}/${name}`;
  if (phone.settings.has(key)) return phone.settings.get(key) ?? null;
  return DEFAULTS[ns]?.[name] ?? null;
}

/** What `settings put` stores, for the commands that change a setting as a side effect (`ime`). */
export function writeSetting(phone: Phone, ns: string, name: string, value: string): void {
  phone.settings.set(`${ns}/${name}`, value);
}

/**
 * `settings get|put|delete|list <namespace> …` as Android's settings tool answers it: `get`
 * prints the stored text as it was put (`0`, `0.5`, `1.0`) or `null`; `put` prints nothing.
 * The values live with the phone, so every connection sees the same ones until a reset.
 */
export async function settings(phone: Phone, argv: string[]): Promise<CmdOutput> {
  let args = argv;
  if (args[0] === '--user') args = args.slice(2);
  const [verb, rawNs, name, ...value] = args;
  const ns = rawNs?.toLowerCase();
  if (!verb || !ns) return bad('Bad arguments');
  if (!Object.hasOwn(DEFAULTS, ns)) return bad(`Invalid namespace '${rawNs ?? ''}'`);
  switch (verb) {
    case 'get':
      if (!name) return bad('Bad arguments');
      return ok(`${readSetting(phone, ns, name) ?? 'null'}\n`);
    case 'put':
      if (!name || value.length === 0) return bad('Bad arguments');
      phone.settings.set(`${ns}/${name}`, value[0] as string);
      return ok('');
    case 'delete': {
      if (!name) return bad('Bad arguments');
      const had = readSetting(phone, ns, name) !== null;
      phone.settings.set(`${ns}/${name}`, null);
      return ok(`Deleted ${had ? 1 : 0} rows\n`);
    }
    case 'list': {
      const names = new Set(Object.keys(DEFAULTS[ns] ?? {}));
      for (const k of phone.settings.keys()) if (k.startsWith(`${ns}/`)) names.add(k.slice(ns.length + 1));
      const lines = [...names]
        .sort()
        .map((n) => [n, readSetting(phone, ns, n)] as const)
        .filter(([, v]) => v !== null)
        .map(([n, v]) => `${n}=${v}\n`);
      return ok(lines.join(''));
    }
    default:
      return bad(`Invalid command: ${verb}`);
  }
}
