import { DeviceError, isDeviceError } from '../../errors';
import type { PanelState } from '../panel-state';

/*
 * How a purchase names what the shared page reading found wrong: a selection the panel does not
 * prove is a read-back mismatch, a duplicated option is OPTION_AMBIGUOUS — the same DeviceError
 * the collect would throw, with the sharper code the operator's reason table needs.
 */

/** Every dimension reads the task's value, or OPTION_READBACK_MISMATCH. */
export function requireSelection(st: PanelState, names: readonly string[], values: readonly string[]): void {
  const ok = names.every((_, d) => st.selection[d] === values[d]);
  if (!ok)
    throw new DeviceError(
      'OPTION_READBACK_MISMATCH',
      `the panel reads ${JSON.stringify(st.selection)} (${st.view.summary}), wanted ${JSON.stringify(values)}`,
      {},
      { kind: 'selection_differs', selection: [...st.selection], summary: st.view.summary, wanted: [...values] },
    );
}

/** A selection the panel does not prove is a read-back mismatch, not a phone fault. */
export async function readBack<T>(fn: () => Promise<T>, what: string): Promise<T> {
  try {
    return await asPurchaseFailure(fn);
  } catch (err) {
    if (isDeviceError(err) && err.code === 'UNEXPECTED_SCREEN' && /^expected /.test(err.message))
      throw new DeviceError('OPTION_READBACK_MISMATCH', `${what}: ${err.message}`);
    throw err;
  }
}

/**
 * What the shared page reading reports as structure drift is, for a purchase, the more exact
 * OPTION_AMBIGUOUS when it was a duplicated option: still one DeviceError, with a sharper code.
 */
export async function asPurchaseFailure<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (isDeviceError(err) && err.code === 'PAGE_STRUCTURE_CHANGED' && err.details['ambiguous_option'] === true)
      throw new DeviceError('OPTION_AMBIGUOUS', err.message);
    throw err;
  }
}
