/** The shapes the repair logic reads, from the console's BPM types (one place to import). */
export type { Branch, FlowNode, FormField } from '../../../api/bpm';

/** A value of `form_patch`: what the form holds after the repair (null clears the field). */
export type ResumeFormValue = string | number | boolean | null;
