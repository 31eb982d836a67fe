/**
 * The simulated phones `npm start` runs, and a device token for each. Tokens are handed to the
 * device worker through its environment only — never written under the data dir.
 */
export const SIM_PHONES = ['sim-phone-1', 'sim-phone-2'] as const;

export interface ProvisionedDevice {
  deviceId: string;
  serial: string;
  token: string;
}

export async function provisionSimDevices(_dataDir: string, serials: readonly string[]): Promise<ProvisionedDevice[]> {
  // Wired to the device credential store once it exists (issue 3).
  return serials.map((serial) => ({ deviceId: serial, serial, token: '' }));
}
