import { z } from 'zod';
import { cleanText, cutText, UNSAFE_TEXT_MESSAGE, unsafeTextChar } from './text';

/**
 * The read-screen agent on a phone (the UiAutomator2 server its device worker starts beside
 * `uiautomator dump`): the worker reports its state with every `POST /api/device/status`, the
 * admin keeps the last report, and 设备 shows it. One schema for the sender and the receiver.
 */
const AGENT_STATES = ['running', 'starting', 'unavailable'] as const;
export type AgentState = (typeof AGENT_STATES)[number];

/** The longest reason a report may carry (UTF-16 units, as zod counts). */
export const AGENT_REASON_MAX = 200;

/**
 * `reason`: why the agent is not running (null when there is nothing to say). One printable line
 * (domain/text.ts): a report with anything else is refused whole, so a sender passes a raw error
 * message through `agentReasonText` first.
 */
export const phoneAgentReportSchema = z.object({
  state: z.enum(AGENT_STATES),
  reason: z
    .string()
    .trim()
    .max(AGENT_REASON_MAX)
    .superRefine((s, ctx) => {
      const bad = unsafeTextChar(s);
      if (bad !== null) ctx.addIssue({ code: 'custom', message: `${UNSAFE_TEXT_MESSAGE} (found ${bad})` });
    })
    .nullable(),
});
export type PhoneAgentReport = z.infer<typeof phoneAgentReportSchema>;

/**
 * Any text (an error message, a shell answer) as a reason the schema takes: line breaks become
 * spaces, what domain/text.ts refuses is dropped, cut to AGENT_REASON_MAX. Null for nothing left.
 */
export function agentReasonText(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const text = cutText(cleanText(raw.replace(/[\r\n\t]+/g, ' ')).trim(), AGENT_REASON_MAX).trim();
  return text === '' ? null : text;
}

/** What `GET /api/devices` says for a phone whose worker never reported its agent (an older worker, or none yet). */
const AGENT_NOT_REPORTED_REASON = 'not reported';
export const AGENT_NOT_REPORTED: PhoneAgentReport = { state: 'unavailable', reason: AGENT_NOT_REPORTED_REASON };

const AGENT_STATE_ZH: Record<AgentState, string> = {
  running: '运行中',
  starting: '启动中',
  unavailable: '不可用',
};

/**
 * 设备's words: 运行中, 启动中, 不可用. A phone without the agent still buys (its screen is read by
 * the system's dump), so 不可用 says so; the worker's own reason is engineers' text, folded under
 * 技术详情 (`agentReasonDetail`).
 */
export function agentStateZh(agent: PhoneAgentReport): string {
  if (agent.state !== 'unavailable') return AGENT_STATE_ZH[agent.state] ?? agent.state;
  return agent.reason === AGENT_NOT_REPORTED_REASON ? '不可用（未上报）' : '不可用（改用系统读屏）';
}

/** The worker's reason for 技术详情; null when it has none beyond the state. */
export function agentReasonDetail(agent: PhoneAgentReport): string | null {
  return agent.reason === null || agent.reason === AGENT_NOT_REPORTED_REASON ? null : agent.reason;
}
