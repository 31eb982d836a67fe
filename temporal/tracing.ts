import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import {
  ROOT_CONTEXT,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Context,
  type ContextManager,
  type Tracer,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import type { ActivityInboundCallsInterceptor, WorkerInterceptors } from '@temporalio/worker';

/**
 * Traces (docs/operations.md §1.6): with CMAUTOBUY_OTEL_ENDPOINT set, every client call on a
 * workflow (the operator's start, update, cancel) and every activity — the admin's and the
 * phones' — is an OpenTelemetry span exported over OTLP/HTTP. One purchase is one trace: the
 * trace id is derived from the workflow id, which the client knows when it starts the purchase
 * and every activity knows from its info, in any process. Unset, nothing is exported.
 *
 * Not @temporalio/interceptors-opentelemetry's workflow interceptors: they carry the context
 * through the workflow, but added to the bundle they change how the purchase workflow replays
 * (test/histories/replay.test.ts fails four recorded purchases with them) — open purchases would
 * stop on the deploy that turned tracing on. Keying the trace by workflow id needs no workflow
 * code at all; the Temporal Web UI's timeline covers the workflow's own steps.
 */
let processor: SpanProcessor | undefined;
let tracer: Tracer | undefined;

/** Turns tracing on for this process when `endpoint` is set (an OTLP/HTTP base URL or its /v1/traces). */
export function installTracing(opts: { endpoint: string | undefined; serviceName: string }): void {
  if (!opts.endpoint || processor) return;
  const url = opts.endpoint.replace(/\/+$/, '').replace(/(\/v1\/traces)?$/, '/v1/traces');
  processor = new BatchSpanProcessor(new OTLPTraceExporter({ url, timeoutMillis: 5_000 }), {
    scheduledDelayMillis: 1_000,
  });
  const provider = new BasicTracerProvider({
    resource: new Resource({ 'service.name': opts.serviceName }),
    spanProcessors: [processor],
  });
  contextManager = new AsyncContextManager();
  provider.register({ contextManager });
  tracer = provider.getTracer('cmautobuy');
}

/** Sends what is buffered (before a process exits, or a test reads its receiver). */
export async function flushTracing(): Promise<void> {
  await processor?.forceFlush();
}

/** The parent every span of one workflow hangs under: ids derived from the workflow id alone. */
function workflowTrace(workflowId: string): Context {
  const hash = (what: string) => createHash('sha256').update(`${what}:${workflowId}`).digest('hex');
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: hash('trace').slice(0, 32),
    spanId: hash('root').slice(0, 16),
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
}

async function inSpan<T>(
  name: string,
  workflowId: string,
  attrs: Record<string, string>,
  fn: () => Promise<T>,
): Promise<T> {
  const t = tracer as Tracer;
  const span = t.startSpan(
    name,
    { attributes: { 'temporal.workflow_id': workflowId, ...attrs } },
    workflowTrace(workflowId),
  );
  try {
    return await runWith(trace.setSpan(ROOT_CONTEXT, span), fn);
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
    throw err;
  } finally {
    span.end();
  }
}

let contextManager: AsyncContextManager | undefined;
function runWith<T>(ctx: Context, fn: () => Promise<T>): Promise<T> {
  return contextManager ? contextManager.with(ctx, fn) : fn();
}

/** A client's interceptors: the operator's calls on a purchase are spans of its trace. */
export function tracingClientInterceptors(): { workflow: WorkflowClientInterceptor[] } | undefined {
  if (!processor) return undefined;
  const interceptor: WorkflowClientInterceptor = {
    startWithDetails: (input, next) =>
      inSpan(`StartWorkflow:${input.workflowType}`, input.options.workflowId, {}, () => next(input)),
    signalWithStart: (input, next) =>
      inSpan(`SignalWithStartWorkflow:${input.workflowType}`, input.options.workflowId, {}, () => next(input)),
    startUpdate: (input, next) =>
      inSpan(`StartWorkflowUpdate:${input.updateName}`, input.workflowExecution.workflowId, {}, () => next(input)),
    startUpdateWithStart: (input, next) =>
      inSpan(`UpdateWithStartWorkflow:${input.updateName}`, input.workflowStartOptions.workflowId, {}, () =>
        next(input),
      ),
    signal: (input, next) =>
      inSpan(`SignalWorkflow:${input.signalName}`, input.workflowExecution.workflowId, {}, () => next(input)),
    cancel: (input, next) => inSpan('CancelWorkflow', input.workflowExecution.workflowId, {}, () => next(input)),
    terminate: (input, next) => inSpan('TerminateWorkflow', input.workflowExecution.workflowId, {}, () => next(input)),
  };
  return { workflow: [interceptor] };
}

/** A worker's activity interceptors: each activity is a span of its workflow's trace, wherever it runs. */
export function tracingWorkerInterceptors(): WorkerInterceptors | undefined {
  if (!processor) return undefined;
  return {
    activity: [
      (ctx) => {
        const inbound: ActivityInboundCallsInterceptor = {
          execute: (input, next) => {
            const workflowId = ctx.info.workflowExecution?.workflowId;
            if (!workflowId) return next(input);
            return inSpan(
              `RunActivity:${ctx.info.activityType}`,
              workflowId,
              { 'temporal.activity_attempt': String(ctx.info.attempt), 'temporal.task_queue': ctx.info.taskQueue },
              () => next(input),
            );
          },
        };
        return { inbound };
      },
    ],
  };
}

/** OpenTelemetry's active context per async call chain (what @opentelemetry/context-async-hooks does). */
class AsyncContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(context, () => fn.call(thisArg, ...args));
  }
  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const run = (...args: unknown[]) => this.with(context, () => (target as (...a: unknown[]) => unknown)(...args));
    return run as T;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}
