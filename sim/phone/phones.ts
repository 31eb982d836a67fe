/**
 * The phones a simulator process runs: `CMAUTOBUY_SIM_PHONES` of them (default 2), named
 * `sim-phone-1` … `sim-phone-N`. `npm start` provisions a device worker for each name, so the
 * simulator and the supervisor must read the count the same way — here.
 */
const MAX_SIM_PHONES = 64;

export function simPhoneSerials(raw: string | undefined = process.env.CMAUTOBUY_SIM_PHONES): string[] {
  const count = raw === undefined || raw === '' ? 2 : Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > MAX_SIM_PHONES) {
    throw new Error(
      `CMAUTOBUY_SIM_PHONES must be a whole number from 1 to ${MAX_SIM_PHONES}, got ${JSON.stringify(raw)}; unset it for the default 2 phones`,
    );
  }
  return Array.from({ length: count }, (_, i) => `sim-phone-${i + 1}`);
}
