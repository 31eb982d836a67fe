/**
 * What the client and the workflow agree on for traces (docs/operations.md §1.6): the start's span
 * travels in this workflow header as a W3C `traceparent`, and the workflow hands it to the worker
 * through the `tracing` sink, which records the workflow's span under it (temporal/tracing.ts).
 */
export const TRACE_PARENT_HEADER = 'cmautobuy-traceparent';

/** The sink the workflow bundle calls (workflows/tracing.ts) and every workflow worker provides. */
export type TracingSinks = {
  tracing: {
    /** the workflow began, started under the span `traceparent`; never called on replay */
    workflowStarted(traceparent: string): void;
  };
};
