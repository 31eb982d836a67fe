import {
  defaultPayloadConverter,
  proxySinks,
  type Payload,
  type WorkflowInterceptorsFactory,
} from '@temporalio/workflow';
import { TRACE_PARENT_HEADER, type TracingSinks } from '../domain/tracing';

const { tracing } = proxySinks<TracingSinks>();

/**
 * The workflow's side of tracing (docs/operations.md §1.6), bundled as a workflow interceptor
 * module (workers/workflow-bundle.ts): when the start carried the client's span, the worker
 * is told through a sink, and records the workflow's span under it.
 *
 * Unlike @temporalio/interceptors-opentelemetry's workflow interceptors it asks for no command,
 * adds no `await` before the workflow runs (their extra yields reorder the commands a workflow
 * asks for in one activation, which the recorded histories do not accept), draws no random
 * number (span ids made in the sandbox consume the workflow's deterministic random sequence) and
 * touches nothing else: a sink call is no history event and is not made on replay. A start
 * without the header (tracing off, or a workflow from before) calls nothing.
 */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      execute(input, next) {
        const traceparent = traceparentOf(input.headers[TRACE_PARENT_HEADER]);
        if (traceparent) tracing.workflowStarted(traceparent);
        return next(input);
      },
    },
  ],
});

/** The header's traceparent; null without one, or when it is unreadable (a trace is never worth a stuck workflow). */
function traceparentOf(header: Payload | undefined): string | null {
  if (!header) return null;
  try {
    const value: unknown = defaultPayloadConverter.fromPayload(header);
    return typeof value === 'string' ? value : null;
  } catch {
    return null;
  }
}
