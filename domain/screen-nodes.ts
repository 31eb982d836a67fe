import { z } from 'zod';

/**
 * What a held phone's worker last read on its screen (docs/api.md §12.3), offered by 教弹窗 so
 * a person marks the popup's texts and its close control instead of typing them. Only nodes a
 * person could mark are sent: those with a text or a content-desc, and clickable ones (an × drawn
 * without either is told by its class and bounds).
 */
export interface ScreenNode {
  text: string;
  content_desc: string;
  resource_id: string;
  class: string;
  /** [left, top, right, bottom] in the phone's pixels */
  bounds: [number, number, number, number];
  clickable: boolean;
}

/** `GET /api/devices/:deviceId/screen/nodes`: null and none while nobody holds the phone or nothing was read. */
export interface ScreenNodesView {
  read_at: string | null;
  nodes: ScreenNode[];
}

/** A read is cut to this many nodes, each string to this many characters, before it is sent. */
export const MAX_SCREEN_NODES = 400;
export const MAX_SCREEN_NODE_CHARS = 200;

const text = z.string().max(MAX_SCREEN_NODE_CHARS);
const coordinate = z.number().int().min(-100_000).max(100_000);

export const screenNodesUploadSchema = z
  .object({
    hold_since: z.string().min(1).max(64),
    nodes: z
      .array(
        z
          .object({
            text,
            content_desc: text,
            resource_id: text,
            class: text,
            bounds: z.tuple([coordinate, coordinate, coordinate, coordinate]),
            clickable: z.boolean(),
          })
          .strict(),
      )
      .max(MAX_SCREEN_NODES),
  })
  .strict();
export type ScreenNodesUpload = z.infer<typeof screenNodesUploadSchema>;
