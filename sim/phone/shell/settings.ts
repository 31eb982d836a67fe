import type { Phone } from '../phone';

/** what commands.ts's `CmdOutput` is, kept here so the two files do not import each other */
interface CmdOutput {
  stdout: Buffer;
  stderr: Buffer;
  code: number;
}

/**
 * Settings a phone has before anyone changes them. Android ships the three animation scales as
 * `1.0`; any other name reads `null` until it is put, as on a phone where nobody set it.
 */
const DEFAULT_GLOBAL: Record<string, string> = {
  window_animation_scale: '1.0',
  transition_animation_scale: '1.0',
  animator_duration_scale: '1.0',
};
const NAMESPACES = new Set(['system', 'secure', 'global']);

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
function read(phone: Phone, ns: string, name: string): string | null {
  const key = `${ns}/${name}`;
  if (phone.settings.has(key)) return phone.settings.get(key) ?? null;
  return ns === 'global' ? (DEFAULT_GLOBAL[name] ?? null) : null;
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
  if (!NAMESPACES.has(ns)) return bad(`Invalid namespace '${rawNs ?? ''}'`);
  switch (verb) {
    case 'get':
      if (!name) return bad('Bad arguments');
      return ok(`${read(phone, ns, name) ?? 'null'}\n`);
    case 'put':
      if (!name || value.length === 0) return bad('Bad arguments');
      phone.settings.set(`${ns}/${name}`, value[0] as string);
      return ok('');
    case 'delete': {
      if (!name) return bad('Bad arguments');
      const had = read(phone, ns, name) !== null;
      phone.settings.set(`${ns}/${name}`, null);
      return ok(`Deleted ${had ? 1 : 0} rows\n`);
    }
    case 'list': {
      const names = new Set(ns === 'global' ? Object.keys(DEFAULT_GLOBAL) : []);
      for (const k of phone.settings.keys()) if (k.startsWith(`${ns}/`)) names.add(k.slice(ns.length + 1));
      const lines = [...names]
        .sort()
        .map((n) => [n, read(phone, ns, n)] as const)
        .filter(([, v]) => v !== null)
        .map(([n, v]) => `${n}=${v}\n`);
      return ok(lines.join(''));
    }
    default:
      return bad(`Invalid command: ${verb}`);
  }
}
