/** A timestamp of the API in the reader's locale, or a dash when there is none. */
export const timeOf = (value: string | null | undefined) =>
  value ? new Date(value).toLocaleString() : '-';
