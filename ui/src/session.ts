import { createSignal } from 'solid-js';
import { clearCsrfToken, forgetReturnRoute, setCsrfToken, takeReturnRoute } from './api/client';
import { createSession, deleteSession, getMe } from './api/endpoints';
import { DEFAULT_ROUTE, LOGIN_ROUTE, navigate } from './router';

export interface Me {
  username: string;
}

// Bumped on login/logout so anything keyed on the session (the /api/me resource) refetches.
const [sessionEpoch, setSessionEpoch] = createSignal(0);
export { sessionEpoch };

export async function fetchMe(): Promise<Me> {
  const me = await getMe();
  if (typeof me.csrf_token === 'string' && me.csrf_token !== '') setCsrfToken(me.csrf_token);
  return { username: me.username };
}

/** Throws ApiError; the login page turns 401/429 into its own wording. */
export async function login(username: string, password: string): Promise<void> {
  const res = await createSession(username, password);
  setCsrfToken(res.csrf_token);
  setSessionEpoch((n) => n + 1);
  navigate(takeReturnRoute() ?? DEFAULT_ROUTE);
}

export async function logout(): Promise<void> {
  try {
    await deleteSession();
  } catch {
    // Already expired or admin unreachable: the operator asked to leave, so leave anyway.
  }
  clearCsrfToken();
  // An explicit logout is not an interruption; the next login starts fresh.
  forgetReturnRoute();
  setSessionEpoch((n) => n + 1);
  navigate(LOGIN_ROUTE);
}
