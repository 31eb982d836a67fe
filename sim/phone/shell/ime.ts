import type { Phone } from '../phone';
import { err, out, type Command } from './output';
import { LATIN_IME, readSetting, writeSetting } from './settings';

/** Appium's settings app (npm `io.appium.settings`): its Unicode IME types what `input text` cannot. */
export const SETTINGS_PACKAGE = 'io.appium.settings';
/** The versionName of the APK the npm package ships; `dumpsys package` reports it once installed. */
export const SETTINGS_VERSION = '8.0.10';
export const UNICODE_IME = `${SETTINGS_PACKAGE}/.UnicodeIME`;

/** The input methods a package carries; Android's keyboard is part of the system. */
function installedImes(phone: Phone): string[] {
  return phone.agent.installed.has(SETTINGS_PACKAGE) ? [LATIN_IME, UNICODE_IME] : [LATIN_IME];
}

function enabledImes(phone: Phone): string[] {
  const all = installedImes(phone);
  const listed = (readSetting(phone, 'secure', 'enabled_input_methods') ?? '').split(':');
  return all.filter((id) => listed.includes(id));
}

/**
 * The keyboard that receives `input text`: the one the settings name while its package is
 * installed and it is enabled, else the phone's own (Android falls back when an IME goes away).
 */
export function currentIme(phone: Phone): string {
  const chosen = readSetting(phone, 'secure', 'default_input_method');
  return chosen !== null && enabledImes(phone).includes(chosen) ? chosen : LATIN_IME;
}

const USAGE =
  'ime <command>:\n' +
  '  list [-a] [-s]\n    prints all enabled input methods.\n' +
  '  enable [--user <USER_ID>] <ID>\n    allows the given input method ID to be used.\n' +
  '  disable [--user <USER_ID>] <ID>\n    disallows the given input method ID to be used.\n' +
  '  set [--user <USER_ID>] <ID>\n    switches to the given input method ID.\n';

function list(phone: Phone, flags: string[]): string {
  const ids = flags.includes('-a') ? installedImes(phone) : enabledImes(phone);
  if (flags.includes('-s')) return ids.map((id) => `${id}\n`).join('');
  return ids
    .map((id) => {
      const [pkg, cls] = id.split('/') as [string, string];
      return `${id}:\n  mId=${id} mSettingsActivityName=null\n  Service:\n    ServiceInfo:\n      name=${pkg}${cls} packageName=${pkg}\n`;
    })
    .join('');
}

/** `ime enable|disable ID`: Android's words, also for an ID no installed package carries. */
function enable(phone: Phone, id: string, on: boolean): ReturnType<Command> {
  const verb = on ? 'enabled' : 'disabled';
  if (!installedImes(phone).includes(id))
    return Promise.resolve(err(`Unknown input method ${id} cannot be ${verb} for user #0\n`, 0));
  const enabled = enabledImes(phone);
  const was = enabled.includes(id);
  const next = on ? [...new Set([...enabled, id])] : enabled.filter((x) => x !== id);
  writeSetting(phone, 'secure', 'enabled_input_methods', next.join(':'));
  // disabling the keyboard in use hands the keys to one still enabled, as Android does
  if (!on && readSetting(phone, 'secure', 'default_input_method') === id)
    writeSetting(phone, 'secure', 'default_input_method', next[0] ?? LATIN_IME);
  return Promise.resolve(out(`Input method ${id}: ${was === on ? 'already' : 'now'} ${verb}\n`));
}

/**
 * `ime list|enable|disable|set` as Android's input method service answers them (user 0 only).
 * What they change lives in the secure settings, so `settings get secure default_input_method`
 * reads the keyboard `ime set` chose, and a reset of the phone puts its own keyboard back.
 */
export const ime: Command = async (phone, args) => {
  const [sub, ...rest] = args;
  const operands: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i] as string;
    if (a === '--user') i += 1;
    else if (!a.startsWith('-')) operands.push(a);
  }
  const id = operands[0];
  switch (sub) {
    case 'list':
      return out(list(phone, rest));
    case 'enable':
    case 'disable':
      return id === undefined ? err(USAGE, 255) : enable(phone, id, sub === 'enable');
    case 'set':
      if (id === undefined) return err(USAGE, 255);
      if (!enabledImes(phone).includes(id))
        return err(`Unknown input method ${id} cannot be selected for user #0\n`, 0);
      writeSetting(phone, 'secure', 'default_input_method', id);
      return out(`Input method ${id} selected for user #0\n`);
    default:
      return err(USAGE, sub === undefined ? 0 : 255);
  }
};
