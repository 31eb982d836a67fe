import { PDD_PACKAGE } from '../../domain/pdd-app';
import { DeviceError } from '../errors';
import type { PddProfile } from './profiles/pdd-profile';
import { PDD_8_17_0 } from './profiles/pdd-8.17.0';

export type { PddProfile };

const PROFILES: readonly PddProfile[] = [PDD_8_17_0];

export const SUPPORTED_APP_VERSIONS = PROFILES.map((p) => p.appVersion);

/** The profile of exactly this version; any other version is refused before the first tap. */
export function profileForVersion(version: string | null): PddProfile {
  if (version === null)
    throw new DeviceError('APP_NOT_INSTALLED', `the PDD app (${PDD_PACKAGE}) is not installed on this phone`);
  const profile = PROFILES.find((p) => p.appVersion === version);
  if (!profile) {
    throw new DeviceError(
      'APP_VERSION_UNSUPPORTED',
      `PDD app version ${version} has no page profile (supported: ${SUPPORTED_APP_VERSIONS.join(', ')}); nothing was tapped`,
      {
        app_version: version,
      },
    );
  }
  return profile;
}
