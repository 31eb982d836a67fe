import {
  installTracing,
  tracingClientInterceptors,
  tracingSinks,
  tracingWorkerInterceptors,
} from '../../temporal/tracing';

/**
 * Without CMAUTOBUY_OTEL_ENDPOINT tracing is off (temporal/tracing.ts): clients send no span and
 * no trace header (so the bundle's interceptor, workflows/tracing.ts, calls nothing), workers wrap
 * no activity, and the sink a workflow started under tracing calls records nothing.
 */
describe('tracing off when CMAUTOBUY_OTEL_ENDPOINT is unset', () => {
  it('installs no client or activity interceptor, and the workflow sink records nothing', () => {
    installTracing({ endpoint: undefined, serviceName: 'cmautobuy-test' });
    expect(tracingClientInterceptors()).toBeUndefined();
    expect(tracingWorkerInterceptors()).toBeUndefined();
    const sink = tracingSinks().tracing.workflowStarted;
    expect(sink.callDuringReplay).toBe(false);
    const info = {
      workflowId: 'w',
      runId: 'r',
      workflowType: 'purchase',
      taskQueue: 'admin',
      runStartTime: new Date(),
    };
    expect(() => sink.fn(info as never, `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01`)).not.toThrow();
  });
});
