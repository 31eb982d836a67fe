import { createSignal, type Accessor } from 'solid-js';
import { errorText } from '../errors';

interface ActionOptions<A extends unknown[], R> {
  /** What `notice` says once the call worked; a function of the answer where it depends on it (null: nothing). */
  success?: string | ((result: R) => string | null);
  /**
   * A failure the caller shows its own way (the refused tasks, an error per field): given the
   * error and the error table's Chinese for it, returns what `error` shows (null: nothing). It
   * runs while the action is still busy, so a reload it awaits is part of the action.
   */
  failure?: (err: unknown, text: string, ...args: A) => string | null | Promise<string | null>;
}

export interface Action<A extends unknown[], R> {
  busy: Accessor<boolean>;
  /** the last run's failure, in the operator's words; null once a run starts */
  error: Accessor<string | null>;
  /** the last run's `success` text; null once a run starts */
  notice: Accessor<string | null>;
  /**
   * Calls unless a call is under way: a second click while busy does nothing. Never throws;
   * resolves to the answer, or undefined when the call failed or did not run.
   */
  run: (...args: A) => Promise<R | undefined>;
  /** for what the form checks before it calls, and what a load shows in the same place */
  setError: (text: string | null) => void;
  setNotice: (text: string | null) => void;
}

/**
 * One operator action on the admin (save, start, release…): the one way the UI acts. Busy while
 * the call runs, the error table's Chinese when it fails (errors.ts), the success text when it
 * works, and no second call while the first is under way.
 */
export function createAction<A extends unknown[], R>(
  call: (...args: A) => Promise<R>,
  options: ActionOptions<A, R> = {},
): Action<A, R> {
  const [busy, setBusy] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [notice, setNotice] = createSignal<string | null>(null);
  const run = async (...args: A): Promise<R | undefined> => {
    if (busy()) return undefined;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const result = await call(...args);
      const { success } = options;
      if (success !== undefined) setNotice(typeof success === 'string' ? success : success(result));
      return result;
    } catch (err) {
      const text = errorText(err);
      setError(options.failure ? await options.failure(err, text, ...args) : text);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, notice, run, setError, setNotice };
}

/** What a view shows of an action, whatever it takes. */
export type ActionState = Pick<Action<never[], unknown>, 'busy' | 'error' | 'notice'>;

/**
 * `failure` for an action whose error shows where its page's load errors show: set there, it
 * goes with the next good load like theirs.
 */
export function toLoadError(setLoadError: (text: string) => void): (err: unknown, text: string) => null {
  return (_err, text) => {
    setLoadError(text);
    return null;
  };
}
