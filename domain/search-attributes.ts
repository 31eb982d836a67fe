import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * The custom search attributes (Keyword) registered on every server (temporal/search-attributes.ts),
 * typed once so workflows and the admin client spell them the same way.
 */
export const TaskIdAttr = defineSearchAttributeKey('TaskId', SearchAttributeType.KEYWORD);
export const GoodsIdAttr = defineSearchAttributeKey('GoodsId', SearchAttributeType.KEYWORD);
export const DeviceIdAttr = defineSearchAttributeKey('DeviceId', SearchAttributeType.KEYWORD);
/** the phone's name as the 设备 page shows it, beside its UUID, so the Web UI list says which phone */
export const DeviceNameAttr = defineSearchAttributeKey('DeviceName', SearchAttributeType.KEYWORD);
export const TaskStatusAttr = defineSearchAttributeKey('TaskStatus', SearchAttributeType.KEYWORD);
export const ExecutionModeAttr = defineSearchAttributeKey('ExecutionMode', SearchAttributeType.KEYWORD);
