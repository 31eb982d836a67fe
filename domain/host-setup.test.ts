import { hostSetupCommand, type HostSetupFacts } from './host-setup';

const credential = { host_id: '0f2b6c1e-8d4a-4f1b-9c3e-2a7d5e6f8a9b', token: 'ab'.repeat(32) };
const CA = '-----BEGIN CERTIFICATE-----\nMIIBcDCCARagAwIBAgIUQ==\n-----END CERTIFICATE-----';
const facts = (over: Partial<HostSetupFacts['temporal']> = {}, url: string | null = 'https://admin.example.com') =>
  ({
    admin_public_url: url,
    repository_url: 'git@example.com:ops/cmautobuy.git',
    temporal: {
      address: 'temporal.internal:7233',
      namespace: 'cmautobuy',
      loopback: false,
      tls: true,
      server_name: null,
      ca_pem: null,
      client_certificate: false,
      api_key: false,
      ...over,
    },
  }) satisfies HostSetupFacts;

describe('the phone host command', () => {
  it('is none while admin.public_url is unset: the loopback address a browser used reaches nothing elsewhere', () => {
    expect(hostSetupCommand(facts({}, null), credential)).toBeNull();
  });

  it('saves the token outside the data dir and starts the host with the public URL, Temporal and TLS, never payload keys', () => {
    const c = hostSetupCommand(facts(), credential)!;
    expect(c.run).toBe(
      [
        'umask 077 && mkdir -p "$HOME/.cmautobuy"',
        `cat > "$HOME/.cmautobuy/host-0f2b6c1e.token" <<'TOKEN'`,
        `host_id=${credential.host_id}`,
        `token=${credential.token}`,
        'TOKEN',
        'CMAUTOBUY_ADMIN_PUBLIC_URL=https://admin.example.com \\',
        'CMAUTOBUY_TEMPORAL_ADDRESS=temporal.internal:7233 \\',
        'CMAUTOBUY_TEMPORAL_NAMESPACE=cmautobuy \\',
        'CMAUTOBUY_TEMPORAL_TLS=1 \\',
        'npm run phone-host -- --token-file "$HOME/.cmautobuy/host-0f2b6c1e.token"',
      ].join('\n'),
    );
    expect(c.run).not.toMatch(/PAYLOAD_KEYS/);
    expect(c.install).toContain('git clone git@example.com:ops/cmautobuy.git cmautobuy');
    expect(c.install).toMatch(/setup_20\.x/);
    expect(c.install).toMatch(/apt-get install -y nodejs git adb/);
    expect(c.install).toMatch(/npm ci/);
    expect(c.needs).toEqual([]);
  });

  it('writes the CA certificates (and nothing else of the file), names the server, asks for the API key and places the client pair', () => {
    const c = hostSetupCommand(
      facts({
        server_name: 'temporal.example',
        ca_pem: `${CA}\n-----BEGIN PRIVATE KEY-----\nsecret\n-----END PRIVATE KEY-----`,
        client_certificate: true,
        api_key: true,
      }),
      credential,
    )!;
    expect(c.run).toContain(`cat > "$HOME/.cmautobuy/temporal-ca.pem" <<'PEM'\n${CA}\nPEM`);
    expect(c.run).not.toContain('PRIVATE KEY');
    expect(c.run).toContain('CMAUTOBUY_TEMPORAL_TLS_SERVER_NAME=temporal.example \\');
    expect(c.run).toContain('CMAUTOBUY_TEMPORAL_TLS_CA="$HOME/.cmautobuy/temporal-ca.pem" \\');
    expect(c.run).toContain('CMAUTOBUY_TEMPORAL_TLS_CERT="$HOME/.cmautobuy/temporal-client.pem" \\');
    expect(c.run).toContain('CMAUTOBUY_TEMPORAL_TLS_KEY="$HOME/.cmautobuy/temporal-client.key" \\');
    expect(c.run).toContain("read -rsp 'Temporal API key: ' CMAUTOBUY_TEMPORAL_API_KEY");
    expect(c.needs).toEqual(['client-certificate', 'api-key']);
  });

  it('says what the admin allowed itself: plain gRPC off loopback, or a loopback Temporal another machine cannot reach', () => {
    expect(hostSetupCommand(facts({ tls: false }), credential)!.run).toContain(
      'CMAUTOBUY_TEMPORAL_ALLOW_PLAINTEXT=1 \\',
    );
    const local = hostSetupCommand(facts({ tls: false, loopback: true, address: '127.0.0.1:7233' }), credential)!;
    expect(local.run).not.toContain('ALLOW_PLAINTEXT');
    expect(local.needs).toEqual(['temporal-on-loopback']);
  });

  it('quotes what the shell would split, and asks for the repository when the admin has no origin', () => {
    const c = hostSetupCommand({ ...facts({ namespace: "ops team's" }), repository_url: null }, credential)!;
    expect(c.run).toContain(`CMAUTOBUY_TEMPORAL_NAMESPACE='ops team'\\''s' \\`);
    expect(c.install).toContain('git clone <repository-url> cmautobuy');
    expect(c.needs).toEqual(['repository-url']);
  });
});
