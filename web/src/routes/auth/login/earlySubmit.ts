import type { FormInstance } from 'antd';

declare global {
  interface Window {
    /** Set by login.html's script (scripts/prerender.mjs) while the page is not yet React's. */
    approvaPrerendered?: { takeOver(): boolean };
  }
}

/**
 * What the visitor did on the prebuilt sign-in page (login.html) before the console's script
 * took it over, carried over once, in the commit that hydrates the page: the text typed in its
 * fields (on screen, but not in the form's state, which React does not always pick up), and a
 * submission the page held, which the form sends now. Without a prebuilt page, nothing.
 */
export function takeOverEarlyInput(form: FormInstance, fields: readonly string[]) {
  const early = window.approvaPrerendered;
  if (!early) return;
  delete window.approvaPrerendered;
  for (const name of fields) {
    const typed = (document.getElementById(name) as HTMLInputElement | null)?.value;
    if (typed && !form.getFieldValue(name)) form.setFieldValue(name, typed);
  }
  if (early.takeOver()) form.submit();
}
