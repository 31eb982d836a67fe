import { parseStopFacts, type StopFacts } from '../../../../domain/purchase/stop-facts';
import { stopFactsZh } from '../../../../domain/purchase/stop-facts-zh';
import type { TaskView, TimelineEntry } from '../../../../domain/purchase/views';

/**
 * The one place that turns a stop's detail into a Chinese sentence: from the facts the phone side
 * sent with it (domain/purchase/stop-facts.ts), never from its English. A detail without facts —
 * recorded before stops carried them, or one no fact describes (the permitted submission's id) —
 * yields null: the page then shows the reason's Chinese text and keeps the original for engineers
 * behind 技术详情.
 */

/** Facts as the answer carries them, checked: an admin of another version may send a kind this page does not know. */
function factsZh(value: unknown): string | null {
  const facts = parseStopFacts(value);
  return facts ? stopFactsZh(facts) : null;
}

/** A timeline entry's detail in Chinese, or null. */
export function detailZh(entry: Pick<TimelineEntry, 'facts'>): string | null {
  return factsZh(entry.facts);
}

/** What the task's stop sentence draws on. */
export type StopContext = Pick<
  TaskView,
  'reason_code' | 'reason_facts' | 'gates' | 'quantity' | 'max_total_price_cent'
>;

/**
 * The task's stop in Chinese, from its facts. A price over the cap recorded before stops carried
 * facts is still told from the gate readings the task keeps, as it was before.
 */
export function stopDetailZh(task: StopContext): string | null {
  const facts = parseStopFacts(task.reason_facts) ?? gateFacts(task);
  return facts ? stopFactsZh(facts) : null;
}

/** The facts an over-cap stop would carry today, rebuilt from the gate readings the task keeps. */
function gateFacts(task: StopContext): StopFacts | null {
  const g = task.gates;
  const cap = task.max_total_price_cent;
  if (task.reason_code === 'GATE1_OVER_CAP' && g.gate1_unit_price_cent !== null) {
    const unit = g.gate1_unit_price_cent;
    return {
      kind: 'gate1_over_cap',
      unit_price_cent: unit,
      quantity: task.quantity,
      total_cent: unit * task.quantity,
      max_total_price_cent: cap,
    };
  }
  if (task.reason_code === 'GATE2_OVER_CAP' && g.gate2_panel_total_cent !== null)
    return { kind: 'panel_total_over_cap', panel_total_cent: g.gate2_panel_total_cent, max_total_price_cent: cap };
  return null;
}
