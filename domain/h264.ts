/**
 * What a browser reads of an H.264 Annex-B access unit before it hands it to its decoder: the
 * NAL unit types in it (an IDR picture makes it a key frame) and the codec string WebCodecs
 * wants, `avc1.PPCCLL` from the SPS's profile, constraint flags and level.
 */
const NAL_IDR = 5;
const NAL_SPS = 7;

/** The NAL units of an Annex-B buffer, each without its start code. */
export function nalUnits(data: Uint8Array): Uint8Array[] {
  const starts: number[] = [];
  for (let i = 0; i + 2 < data.length; i++) {
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 1) {
      starts.push(i + 3);
      i += 2;
    }
  }
  return starts.map((begin, k) => {
    let end = k + 1 < starts.length ? (starts[k + 1] as number) - 3 : data.length;
    // the zero before a 4-byte start code belongs to that start code
    while (end > begin && data[end - 1] === 0) end--;
    return data.subarray(begin, end);
  });
}

export function nalType(unit: Uint8Array): number {
  return (unit[0] ?? 0) & 0x1f;
}

/** An access unit a decoder can start from: it holds an IDR picture. */
export function isKeyFrame(data: Uint8Array): boolean {
  return nalUnits(data).some((u) => nalType(u) === NAL_IDR);
}

/** `avc1.PPCCLL` from the first SPS in the buffer; null when there is none. */
export function avcCodecString(data: Uint8Array): string | null {
  const sps = nalUnits(data).find((u) => nalType(u) === NAL_SPS && u.length >= 4);
  if (!sps) return null;
  const hex = (b: number | undefined): string => (b ?? 0).toString(16).padStart(2, '0');
  return `avc1.${hex(sps[1])}${hex(sps[2])}${hex(sps[3])}`;
}
