import {
  AGENT_NOT_REPORTED,
  AGENT_REASON_MAX,
  agentReasonText,
  agentReasonDetail,
  agentStateZh,
  phoneAgentReportSchema,
} from './phone-agent';

describe('the read-screen agent report', () => {
  it('设备 words: 运行中, 启动中, 不可用 with its reason; never reported reads 未上报', () => {
    expect(agentStateZh({ state: 'running', reason: null })).toBe('运行中');
    expect(agentStateZh({ state: 'starting', reason: 'installing' })).toBe('启动中');
    expect(agentStateZh({ state: 'unavailable', reason: 'not installed' })).toBe('不可用（改用系统读屏）');
    expect(agentReasonDetail({ state: 'unavailable', reason: 'not installed' })).toBe('not installed');
    expect(agentStateZh({ state: 'unavailable', reason: null })).toBe('不可用（改用系统读屏）');
    expect(agentReasonDetail({ state: 'starting', reason: null })).toBeNull();
    expect(agentReasonDetail(AGENT_NOT_REPORTED)).toBeNull();
    expect(agentStateZh(AGENT_NOT_REPORTED)).toBe('不可用（未上报）');
  });

  it('agentReasonText turns any text into a reason the schema takes, or null', () => {
    for (const raw of [
      'a\nb\r\nc\td',
      'x\u0007\u202e\ud800y',
      '读'.repeat(500),
      `${'z'.repeat(AGENT_REASON_MAX - 1)}😀`,
    ]) {
      const reason = agentReasonText(raw);
      expect(phoneAgentReportSchema.safeParse({ state: 'unavailable', reason }).success).toBe(true);
      expect(reason!.length).toBeLessThanOrEqual(AGENT_REASON_MAX);
    }
    expect(agentReasonText('a\nb')).toBe('a b');
    expect(agentReasonText(' \n\u0007 ')).toBeNull();
    expect(agentReasonText(undefined)).toBeNull();
  });
});
