/** docs/security.md "Evidence": fixed bounds of the internal screenshot store. */
export const EVIDENCE_LIMITS = {
  maxBytes: 10 * 1024 * 1024,
  maxSidePx: 8192,
  maxPixels: 16_777_216,
  /** multipart framing and the text fields on top of the file */
  maxEnvelopeBytes: 64 * 1024,
  /** after a rejection, at most this much more is read (and dropped) so the client sees the answer */
  maxDiscardBytes: 1024 * 1024,
  /** all ancillary chunks (text, colour profile, …) together, as stored; a screenshot has a few bytes of them */
  maxAncillaryBytes: 64 * 1024,
  /** what one compressed ancillary chunk (zTXt, iCCP, compressed iTXt) may inflate to */
  maxAncillaryInflatedBytes: 256 * 1024,
} as const;

/** What a screenshot shows; anything else is refused rather than stored under a vague label. */
export const EVIDENCE_KINDS = [
  'GOODS_PAGE',
  'SKU_PANEL_GATE_1',
  'SKU_PANEL_GATE_2',
  'SUBMIT_PANEL_GATE_3',
  'ORDER_RESULT',
  'ORDER_LIST',
  'SAFETY_STOP',
  /** a second of a phone a person held from the admin (never a payment screen: device-worker/runtime/hold-recorder.ts) */
  'HOLD_FRAME',
] as const;
