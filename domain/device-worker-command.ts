/**
 * What a person needs to start one device worker by hand on another machine (设备 → 发放设备凭据
 * → 完整命令): where the admin and Temporal are as that machine reaches them, and which TLS
 * material to bring. The admin fills the hints from its own settings; file paths and keys stay
 * placeholders, since they live on the phone machine.
 */
export interface DeviceWorkerHints {
  /** CMAUTOBUY_ADMIN_PUBLIC_URL, or null: the page's own origin is used */
  admin_url: string | null;
  temporal_address: string;
  temporal_namespace: string;
  /** the admin talks to Temporal over TLS */
  temporal_tls: boolean;
  /** …with a client certificate */
  temporal_mtls: boolean;
  /** …with a custom CA */
  temporal_ca: boolean;
  temporal_server_name: string | null;
  temporal_api_key: boolean;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\]):\d+$/;

/** True when the admin's Temporal address is loopback: another machine must use a reachable one. */
export function temporalIsLoopback(h: DeviceWorkerHints): boolean {
  return LOOPBACK.test(h.temporal_address);
}

export function deviceWorkerCommand(
  issued: { device_id: string; token: string },
  h: DeviceWorkerHints,
  pageOrigin: string,
): string {
  const adminUrl = h.admin_url ?? pageOrigin;
  const env = [
    `CMAUTOBUY_DEVICE_TOKEN=${issued.token}`,
    `CMAUTOBUY_TEMPORAL_ADDRESS=${temporalIsLoopback(h) ? '<Temporal 地址:7233>' : h.temporal_address}`,
    `CMAUTOBUY_TEMPORAL_NAMESPACE=${h.temporal_namespace}`,
    `CMAUTOBUY_ADMIN_PUBLIC_URL=${adminUrl}`,
    ...(h.temporal_ca ? ['CMAUTOBUY_TEMPORAL_TLS_CA=<CA 证书文件>'] : []),
    ...(h.temporal_mtls
      ? ['CMAUTOBUY_TEMPORAL_TLS_CERT=<客户端证书文件>', 'CMAUTOBUY_TEMPORAL_TLS_KEY=<客户端私钥文件>']
      : []),
    ...(h.temporal_server_name ? [`CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME=${h.temporal_server_name}`] : []),
    ...(h.temporal_tls && !h.temporal_ca && !h.temporal_mtls ? ['CMAUTOBUY_TEMPORAL_TLS=1'] : []),
    ...(h.temporal_api_key ? ['CMAUTOBUY_TEMPORAL_API_KEY=<Temporal API key>'] : []),
  ];
  return `${env.join(' ')} npm run device-worker -- --device-id ${issued.device_id} --serial <adb serial> --admin-url ${adminUrl}`;
}
