/** A stored body as readable text: JSON indented, anything else (`[omitted]`) as it is. */
export function prettyBody(body: string | null): string | null {
  if (body === null || body === '') return null;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
