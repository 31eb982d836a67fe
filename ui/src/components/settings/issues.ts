/** The first message per field of a list of zod issues (client-side or a 400's `details.issues`). */
export function issuesByField(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of issues) {
    const field = issue.path.map(String).join('.');
    out[field] ??= issue.message;
  }
  return out;
}
