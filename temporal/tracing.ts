import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import {
  ROOT_CONTEXT,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Context,
  type ContextManager,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  RandomIdGenerator,
  type IdGenerator,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { WorkflowClientInterceptor } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import type { ActivityInboundCallsInterceptor, InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import { TRACE_PARENT_HEADER, type TracingSinks } from '../domain/tracing';

/**
 * Traces (docs/operations.md §1.6): with CMAUTOBUY_OTEL_ENDPOINT set, every client call on a
 * workflow (the operator's start, update, cancel), the workflow itself and every activity — the
 * admin's and the phones' — is an OpenTelemetry span exported over OTLP/HTTP. One purchase is one
 * trace: the trace id is derived from the workflow id, which the client knows when it starts the
 * purchase and every activity knows from its info, in any process. The chain is the operator's
 * start → the workflow (`RunWorkflow:<type>`, under the start's span, which travels in a start
 * header) → each activity (under the workflow's span, whose id is derived from the run id).
 * Unset, nothing is exported and no header is sent.
 *
 * Not @temporalio/interceptors-opentelemetry's workflow interceptors: their extra `await`s in
 * the sandbox reorder the commands of one activation and their span ids draw on the workflow's
 * random sequence, so the recorded purchases stop replaying with them (docs/operations.md §1.6).
 * The workflow's part here is workflows/tracing.ts: one sink call, no command, no yield.
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
    idGenerator: ids,
  });
  contextManager = new AsyncContextManager();
  provider.register({ contextManager });
  tracer = provider.getTracer('cmautobuy');
}

/** Sends what is buffered (before a process exits, or a test reads its receiver). */
export async function flushTracing(): Promise<void> {
  await processor?.forceFlush();
}

const hash = (what: string) => createHash('sha256').update(what).digest('hex');

/** Random span ids, except the one asked for next: the workflow's span has an id derived from its run. */
class DerivedIds implements IdGenerator {
  private readonly random = new RandomIdGenerator();
  next: string | undefined;
  generateTraceId(): string {
    return this.random.generateTraceId();
  }
  generateSpanId(): string {
    const id = this.next ?? this.random.generateSpanId();
    this.next = undefined;
    return id;
  }
}
const ids = new DerivedIds();

/** A remote parent: the trace id derived from the workflow id, the span id given. */
function parentIn(workflowId: string, spanId: string): Context {
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: hash(`trace:${workflowId}`).slice(0, 32),
    spanId,
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
}

/** The parent the client's calls hang under: a root derived from the workflow id alone. */
function workflowTrace(workflowId: string): Context {
  return parentIn(workflowId, hash(`root:${workflowId}`).slice(0, 16));
}

/** The id of a workflow run's own span: every activity of the run hangs under it, in any process. */
function runSpanId(workflowId: string, runId: string): string {
  return hash(`run:${workflowId}:${runId}`).slice(0, 16);
}

async function inSpan<T>(
  name: string,
  workflowId: string,
  attrs: Record<string, string>,
  fn: (span: Span) => Promise<T>,
  parent: Context = workflowTrace(workflowId),
): Promise<T> {
  const t = tracer as Tracer;
  const span = t.startSpan(name, { attributes: { 'temporal.workflow_id': workflowId, ...attrs } }, parent);
  try {
    return await runWith(trace.setSpan(ROOT_CONTEXT, span), () => fn(span));
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
    // the start's span travels to the workflow, whose own span it parents (workflows/tracing.ts)
    startWithDetails: (input, next) =>
      inSpan(`StartWorkflow:${input.workflowType}`, input.options.workflowId, {}, (span) =>
        next({ ...input, headers: { ...input.headers, [TRACE_PARENT_HEADER]: traceparentPayload(span) } }),
      ),
    signalWithStart: (input, next) =>
      inSpan(`SignalWithStartWorkflow:${input.workflowType}`, input.options.workflowId, {}, (span) =>
        next({ ...input, headers: { ...input.headers, [TRACE_PARENT_HEADER]: traceparentPayload(span) } }),
      ),
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
            const runId = ctx.info.workflowExecution?.runId ?? '';
            return inSpan(
              `RunActivity:${ctx.info.activityType}`,
              workflowId,
              { 'temporal.activity_attempt': String(ctx.info.attempt), 'temporal.task_queue': ctx.info.taskQueue },
              () => next(input),
              parentIn(workflowId, runSpanId(workflowId, runId)),
            );
          },
        };
        return { inbound };
      },
    ],
  };
}

/**
 * The `tracing` sink every workflow worker gives the bundle (workflows/tracing.ts). Given even
 * with tracing off (then it records nothing): a workflow started by a traced client calls it,
 * and an unregistered sink is logged as an error on every replay of that workflow.
 */
export function tracingSinks(): InjectedSinks<TracingSinks> {
  return { tracing: { workflowStarted: { fn: recordWorkflowSpan, callDuringReplay: false } } };
}

/**
 * The workflow's span: from the run's start to the moment the worker first ran it, under the
 * client's start span, with the id its activities hang under. A purchase parks for days; its span
 * marks where the workflow took over, its activities carry the rest.
 */
function recordWorkflowSpan(info: WorkflowInfo, traceparent: string): void {
  if (!tracer) return;
  const parentSpanId = /^00-[0-9a-f]{32}-([0-9a-f]{16})-[0-9a-f]{2}$/.exec(traceparent)?.[1];
  const parent = parentSpanId ? parentIn(info.workflowId, parentSpanId) : workflowTrace(info.workflowId);
  ids.next = runSpanId(info.workflowId, info.runId);
  tracer
    .startSpan(
      `RunWorkflow:${info.workflowType}`,
      {
        // a number: the Date comes from the workflow's context, where instanceof Date fails
        startTime: info.runStartTime.getTime(),
        attributes: {
          'temporal.workflow_id': info.workflowId,
          'temporal.run_id': info.runId,
          'temporal.task_queue': info.taskQueue,
        },
      },
      parent,
    )
    .end();
}

/** A span as the W3C traceparent the start header carries. */
function traceparentPayload(span: Span) {
  const { traceId, spanId, traceFlags } = span.spanContext();
  return defaultPayloadConverter.toPayload(`00-${traceId}-${spanId}-0${traceFlags & 1}`);
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
