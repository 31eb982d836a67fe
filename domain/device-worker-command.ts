import { setupCommand, type HostSetupCommand, type HostSetupFacts } from './host-setup';

/**
 * 设备 → 发放设备凭据: one device worker started by hand on another machine, for one phone. The
 * admin answers the same facts as for a phone host (admin/hosts/setup.ts: 设置's 管理服务对外地址,
 * how it reaches Temporal) and the command is built by the same pieces (domain/host-setup.ts), so
 * the two dialogs cannot disagree about an address or a TLS setting.
 *
 * Unlike a phone host, such a worker has no channel the payload keys could come down: the script
 * asks for them as it asks for an API key, so they are typed, never kept in the shell's history.
 */
export function deviceWorkerCommand(
  facts: HostSetupFacts,
  issued: { device_id: string; token: string },
): HostSetupCommand | null {
  const command = setupCommand(
    facts,
    {
      name: `device-${issued.device_id.slice(0, 8)}.token`,
      lines: [`device_id=${issued.device_id}`, `token=${issued.token}`],
    },
    (tokenFile, adminUrl) => ({
      env: [],
      asks: [
        {
          variable: 'CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS',
          label: 'Payload keys (CMAUTOBUY_TEMPORAL_PAYLOAD_KEYS of the admin)',
        },
      ],
      command: `npm run device-worker -- --device-id ${issued.device_id} --serial <adb serial> --token-file ${tokenFile} --admin-url ${adminUrl}`,
    }),
  );
  return command && { ...command, needs: [...command.needs, 'payload-keys', 'adb-serial'] };
}
